import { displayHexCode, MAX_CODE_LENGTH, MIN_CODE_LENGTH, suggestHexCodes, tryParseHexCode } from './hexcode.js';

/**
 * Finding an address code in free text (interface.md: POST /v2/address/parse
 * "recognises every address-code shape, compact or hyphenated, and codes
 * followed by other text"). Two kinds are recognised: our hex codes, and
 * GhanaPostGPS digital addresses (`GA-123-4567`), which are reported as such
 * but cannot be converted — their grid is proprietary and unpublished.
 */
export const MAX_PARSE_TEXT_LENGTH = 2000;

export type AddressCodeKind = 'hex_code' | 'ghanapost_gps';

export interface AddressCodeMatch {
  kind: AddressCodeKind;
  /** Canonical form: a hex code without hyphens, or a GhanaPostGPS address as `GA-123-4567`. */
  code: string;
  display: string;
  /** Hex codes only. */
  resolution: number | null;
  cell: string | null;
  /** True when the code can be turned into a point by this service. */
  convertible: boolean;
  recognised: {
    shape: 'compact' | 'hyphenated' | 'spaced' | 'mixed';
    letter_case: 'upper' | 'lower' | 'mixed' | 'none';
    /** The input used I, L or O for 1, 1 or 0. */
    look_alikes: boolean;
    /** Other text surrounds the code. */
    embedded: boolean;
    matched_text: string;
    /** Offsets into the text, in UTF-16 code units, end exclusive. */
    start: number;
    end: number;
  };
}

export interface AddressTextResult {
  /** The first code in the text, null when there is none. */
  match: AddressCodeMatch | null;
  /** Codes after the first. */
  others: AddressCodeMatch[];
  /** When no code was found but something code-shaped failed its check: what it likely was. */
  suggestions: string[];
  /** The code-shaped text the suggestions are for. */
  suggested_for: string | null;
}

// Two letters (region, district), 3–4 digits, 4 digits; hyphens or spaces optional.
const GHANAPOST_GPS = /(?<![0-9A-Za-z])([A-Za-z]{2})[- ]?(\d{3,4})[- ]?(\d{4})(?![0-9A-Za-z])/g;
const TOKEN = /[0-9A-Za-z]+/g;
const MAX_MATCHES = 20;
/** Inside other text, shorter codes (cells of 250 km² and more) are taken for words, not addresses. */
export const MIN_EMBEDDED_CODE_LENGTH = 6;

interface Token {
  text: string;
  start: number;
  end: number;
  /** The single separator before this token when it continues a run ('-' or ' '), else ''. */
  joinedBy: string;
}

export function findAddressCodes(text: string): AddressTextResult {
  const whole = text.trim();
  const matches: AddressCodeMatch[] = [];
  const taken: Array<[number, number]> = [];

  for (const found of text.matchAll(GHANAPOST_GPS)) {
    const start = found.index;
    const end = start + found[0].length;
    const code = `${found[1].toUpperCase()}-${found[2]}-${found[3]}`;
    taken.push([start, end]);
    matches.push({
      kind: 'ghanapost_gps',
      code,
      display: code,
      resolution: null,
      cell: null,
      convertible: false,
      recognised: describe(text, whole, start, end, 'ghanapost_gps'),
    });
  }

  const tokens = tokenise(text).filter((token) => !taken.some(([s, e]) => token.start < e && token.end > s));
  // Every window of joined tokens that is a code; the longest win (a chance pass of the check is 1 in 32
  // per window, so "at 6Q3 HQK" may pass too, but it is shorter than the code it overlaps), then the leftmost.
  const candidates = tokens.flatMap((_, i) => codesAt(text, whole, tokens, i));
  candidates.sort((a, b) => b.code.length - a.code.length || a.recognised.start - b.recognised.start);
  for (const candidate of candidates) {
    if (matches.length >= MAX_MATCHES) break;
    const { start, end } = candidate.recognised;
    if (taken.some(([s, e]) => start < e && end > s)) continue;
    taken.push([start, end]);
    matches.push(candidate);
  }
  let suggestions: string[] = [];
  let suggestedFor: string | null = null;
  if (matches.length === 0) {
    for (let i = 0; i < tokens.length && suggestedFor === null; i++) {
      const near = nearMissAt(text, tokens, i);
      if (near) [suggestedFor, suggestions] = near;
    }
  }

  matches.sort((a, b) => a.recognised.start - b.recognised.start);
  const [match = null, ...others] = matches;
  return { match, others, suggestions, suggested_for: suggestedFor };
}

function tokenise(text: string): Token[] {
  const tokens: Token[] = [];
  for (const found of text.matchAll(TOKEN)) {
    const start = found.index;
    const previous = tokens.at(-1);
    const gap = previous ? text.slice(previous.end, start) : '';
    tokens.push({ text: found[0], start, end: start + found[0].length, joinedBy: gap === '-' || gap === ' ' ? gap : '' });
  }
  return tokens;
}

/**
 * The runs of joined tokens from token i that are valid hex codes. A
 * hyphenated run is taken whole or not at all (`6Q3-HQK-Q4ZB` holds no code,
 * though `6Q3` alone would be one). Inside other text a code must have at least
 * MIN_EMBEDDED_CODE_LENGTH characters and hold a digit or be hyphenated:
 * otherwise about one English word in thirty would pass the check.
 */
function codesAt(text: string, whole: string, tokens: Token[], i: number): AddressCodeMatch[] {
  if (tokens[i].joinedBy === '-') return [];
  const found: AddressCodeMatch[] = [];
  let length = 0;
  for (let j = i; j < tokens.length; j++) {
    if (j > i && tokens[j].joinedBy === '') break;
    length += tokens[j].text.length;
    if (length > MAX_CODE_LENGTH) break;
    if (length < MIN_CODE_LENGTH || tokens[j + 1]?.joinedBy === '-') continue;
    const start = tokens[i].start;
    const end = tokens[j].end;
    const written = text.slice(start, end);
    const parsed = tryParseHexCode(written);
    if (!parsed) continue;
    const standsAlone = written === whole;
    const hyphenated = j > i && tokens.slice(i + 1, j + 1).every((token) => token.joinedBy === '-');
    if (!standsAlone && (parsed.code.length < MIN_EMBEDDED_CODE_LENGTH || (!hyphenated && !/\d/.test(written)))) continue;
    found.push({
      kind: 'hex_code',
      code: parsed.code,
      display: displayHexCode(parsed.code),
      resolution: parsed.resolution,
      cell: parsed.cell,
      convertible: true,
      recognised: describe(text, whole, start, end, 'hex_code'),
    });
  }
  return found;
}

/** Code-shaped text at token i that fails the check: a display-form run, or a compact token of 9–12 characters with a digit. */
function nearMissAt(text: string, tokens: Token[], i: number): [string, string[]] | null {
  let j = i;
  let length = tokens[i].text.length;
  while (j + 1 < tokens.length && tokens[j + 1].joinedBy === '-' && length + tokens[j + 1].text.length <= MAX_CODE_LENGTH + 1) {
    j++;
    length += tokens[j].text.length;
  }
  const written = text.slice(tokens[i].start, tokens[j].end);
  const codeShaped = j > i ? length >= 5 : length >= 9 && length <= MAX_CODE_LENGTH + 1 && /\d/.test(written);
  if (!codeShaped) return null;
  const suggestions = suggestHexCodes(written);
  return suggestions.length > 0 ? [written, suggestions] : null;
}

function describe(text: string, whole: string, start: number, end: number, kind: AddressCodeKind): AddressCodeMatch['recognised'] {
  const written = text.slice(start, end);
  const hyphens = written.includes('-');
  const spaces = written.includes(' ');
  const letters = written.replace(/[^A-Za-z]/g, '');
  return {
    shape: hyphens && spaces ? 'mixed' : hyphens ? 'hyphenated' : spaces ? 'spaced' : 'compact',
    letter_case: letters === '' ? 'none' : letters === letters.toUpperCase() ? 'upper' : letters === letters.toLowerCase() ? 'lower' : 'mixed',
    look_alikes: kind === 'hex_code' && /[ILOilo]/.test(written),
    embedded: written !== whole,
    matched_text: written,
    start,
    end,
  };
}
