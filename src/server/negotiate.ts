// Conditional requests and content encoding, for static and dynamic answers alike: picks the
// representation (identity, br or gzip), its ETag, and whether the answer is a 304.
import { chooseEncoding, compress, MIN_COMPRESSIBLE, type Encoding } from '../api/encoding.ts';

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

const SUFFIX: Record<Encoding, string> = { br: '-br', gzip: '-gz' };

/** Each encoding has its own strong ETag (`"x"`, `"x-br"`, `"x-gz"`): distinct bytes, distinct validators. */
export const etagFor = (etag: string, encoding: Encoding | undefined): string =>
  encoding === undefined ? etag : `${etag.slice(0, -1)}${SUFFIX[encoding]}"`;

/** If-None-Match matches when it names any representation of the same content, or `*`. */
export function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const base = etag.slice(1, -1);
  for (const raw of header.split(',')) {
    const tag = raw.trim().replace(/^W\//, '');
    if (tag === '*') return true;
    const opaque = tag.slice(1, -1).replace(/-(br|gz)$/, '');
    if (opaque === base) return true;
  }
  return false;
}

export function negotiate(variants: Variants, etag: string, acceptEncoding: string | undefined, ifNoneMatch: string | undefined, compressOnDemand: boolean): Chosen {
  const vary = variants.br !== undefined || variants.gzip !== undefined || (compressOnDemand && variants.identity.length >= MIN_COMPRESSIBLE);
  let encoding = vary ? chooseEncoding(acceptEncoding) : undefined;
  let body = variants.identity;
  if (encoding !== undefined) {
    const ready = variants[encoding];
    if (ready) body = ready;
    else if (compressOnDemand) body = compress(variants.identity, encoding, 'request');
    else encoding = undefined;
  }
  const chosenTag = etagFor(etag, encoding);
  return { notModified: matchesIfNoneMatch(ifNoneMatch, etag), body, encoding, etag: chosenTag, vary };
}
