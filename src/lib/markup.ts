// Text inserted into HTML or XML markup, as element text or a double-quoted attribute value.

const ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** `text` with `& < > " '` replaced by entities: safe in element text and in quoted attributes. */
export const escapeMarkup = (text: string): string => text.replace(/[&<>"']/g, (c) => ENTITIES[c]!);
