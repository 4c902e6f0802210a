// Text for the XML files the site serves (sitemaps, Atom feeds): escaped for element text and
// attributes, with the characters XML 1.0 forbids removed (§2.2: controls other than tab, line
// feed and carriage return; lone surrogates; U+FFFE and U+FFFF), so no catalogue text can make a
// file a parser refuses.
import { escapeMarkup } from '../lib/markup.ts';

// eslint-disable-next-line no-control-regex
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

// any character NOT_XML or escapeMarkup could touch (a surrogate, even paired): text without one is
// returned as it is, after one scan (most titles, tags and URLs)
// eslint-disable-next-line no-control-regex
const MAY_CHANGE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ud800-\udfff\ufffe\uffff&<>"']/;

/** `text` safe as XML element text or a double-quoted attribute value. */
export const xmlText = (text: string): string => (MAY_CHANGE.test(text) ? escapeMarkup(text.replace(NOT_XML, '')) : text);

/** At most `max` characters of `text` (whole code points), with `…` when cut. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = text.slice(0, max - 1);
  if (/[\ud800-\udbff]$/.test(cut)) cut = cut.slice(0, -1);
  return `${cut}…`;
}

export const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';
