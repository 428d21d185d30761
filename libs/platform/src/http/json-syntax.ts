/**
 * What the two JSON scanners share: json-body.ts's over text and raw-json.ts's
 * over bytes (json-body.ts imports raw-json.ts, so neither can import the
 * other's). The character codes are the same in UTF-16 and UTF-8 here (ASCII).
 */
export type JsonBodyLimits = { maxDepth: number; maxValues: number; maxMembers: number };
export type JsonBodyLimit = 'depth' | 'values' | 'members';

export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
export const COMMA = 0x2c;
export const COLON = 0x3a;
export const OPEN_BRACKET = 0x5b;
export const CLOSE_BRACKET = 0x5d;
export const OPEN_BRACE = 0x7b;
export const CLOSE_BRACE = 0x7d;
export const LOWER_U = 0x75;
