// Conditional requests and content encoding, for static and dynamic answers alike: picks the
// representation (identity, br or gzip), its ETag, and whether the answer is a 304.
import { compress, MIN_COMPRESSIBLE, type Encoding } from './encoding.ts';
import { matchesIfNoneMatch } from './etag.ts';
import { chooseEncoding, variantEtag } from './representation.ts';

/** What a body compressed on demand can be sent as. */
export const ON_DEMAND: Readonly<Record<Encoding, true>> = { br: true, gzip: true };

export interface Variants {
  readonly identity: Buffer;
  readonly br?: Buffer | undefined;
  readonly gzip?: Buffer | undefined;
}

export interface Chosen {
  readonly notModified: boolean;
  readonly body: Buffer;
  readonly encoding: Encoding | undefined;
  readonly etag: string;
  /** whether the answer varies with Accept-Encoding */
  readonly vary: boolean;
}

export function negotiate(variants: Variants, etag: string, acceptEncoding: string | undefined, ifNoneMatch: string | undefined, compressOnDemand: boolean): Chosen {
  const stored = variants.br !== undefined || variants.gzip !== undefined;
  const onDemand = !stored && compressOnDemand && variants.identity.length >= MIN_COMPRESSIBLE;
  const encoding = chooseEncoding(onDemand ? ON_DEMAND : variants, acceptEncoding);
  const body = encoding === undefined ? variants.identity : variants[encoding] ?? compress(variants.identity, encoding, 'request');
  const chosenTag = variantEtag(etag, encoding, body.length);
  return { notModified: matchesIfNoneMatch(ifNoneMatch, chosenTag), body, encoding, etag: chosenTag, vary: stored || onDemand };
}

/** What to send for a rendered answer: conditional GET and on-demand compression applied. */
export interface Outgoing {
  readonly status: number;
  readonly headers: Record<string, string>;
  /** undefined for a 304 */
  readonly body: Buffer | undefined;
}

export function negotiateRendered(rendered: { status: number; body: Buffer; headers: Readonly<Record<string, string>> },
  acceptEncoding: string | undefined, ifNoneMatch: string | undefined): Outgoing {
  const headers: Record<string, string> = { ...rendered.headers };
  const etag = rendered.headers['etag'];
  if (etag === undefined || rendered.status !== 200) {
    headers['content-length'] = String(rendered.body.length);
    return { status: rendered.status, headers, body: rendered.body };
  }
  const chosen = negotiate({ identity: rendered.body }, etag, acceptEncoding, ifNoneMatch, true);
  headers['etag'] = chosen.etag;
  if (chosen.vary) headers['vary'] = 'Accept-Encoding';
  if (chosen.notModified) {
    delete headers['content-type'];
    return { status: 304, headers, body: undefined };
  }
  if (chosen.encoding) headers['content-encoding'] = chosen.encoding;
  headers['content-length'] = String(chosen.body.length);
  return { status: 200, headers, body: chosen.body };
}
