// The bytes of JSON's punctuation (and digits and the newline), for the code that reads a
// manifest's lines straight from its bytes (page-index.ts, page-table.ts, previous-snapshot.ts).
export const NEWLINE = 0x0a;
export const QUOTE = 0x22;
export const COMMA = 0x2c;
export const ZERO = 0x30;
export const NINE = 0x39;
export const COLON = 0x3a;
export const CLOSE_BRACKET = 0x5d;
export const BACKSLASH = 0x5c;
export const OPEN_BRACE = 0x7b;
export const CLOSE_BRACE = 0x7d;
