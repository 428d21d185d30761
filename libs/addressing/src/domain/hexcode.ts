import { cellToLatLng, latLngToCell } from 'h3-js';
import { DomainError, InvalidParamError } from '../../../platform/src/errors.js';
import { isLatitude, isLongitude } from '../../../platform/src/geo/geodesy.js';

/**
 * Hex codes: a lossless, human-friendly base-32 spelling of H3 cells
 * (interface.md, "What the service does": "A hex code for a coordinate never
 * changes"). docs/adr/0009-hex-codes.md describes the scheme; every constant
 * below is frozen by __fixtures__/hexcode-vectors.json — changing one changes
 * codes people have already written down.
 *
 * A code is `payload + check`. The payload is one number written in base 32
 * with a fixed number of characters per resolution:
 *
 *   value = OFFSET[res] + base_cell × 7^res + (digit_1 … digit_res read in base 7)
 *
 * Two resolutions share each payload length (0+1, 3+4, 5+6, …; 2 and 9 are
 * alone), the finer one numbered after the coarser, so the value alone says
 * which resolution it is. Only the information H3 really carries is spelled
 * out — not the raw 64 bits — so a default-resolution code has 10 characters
 * and coarser cells have shorter ones.
 */

/**
 * Crockford's base-32 alphabet: digits and upper-case letters without I, L, O
 * (read as 1, 1, 0 on input, since that is what a reader meant) and U.
 */
export const HEX_CODE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * Resolution 13: a cell of about 44 m² (edge 4.1 m), the H3 size nearest to a
 * GhanaPostGPS 5 m × 5 m square (res 14 is 6 m², res 12 is 307 m²), and no
 * point is further than a phone's GPS error from its cell centre. Its codes
 * have 10 characters, the length of a GhanaPostGPS address without the region.
 */
export const DEFAULT_ADDRESS_RESOLUTION = 13;

export const MIN_RESOLUTION = 0;
export const MAX_RESOLUTION = 15;

/** Frozen: payload characters per resolution 0…15. */
export const PAYLOAD_LENGTH: readonly number[] = Object.freeze([2, 2, 3, 4, 4, 5, 5, 6, 6, 7, 8, 8, 9, 9, 10, 10]);

/** Code lengths, check character included. */
export const MIN_CODE_LENGTH = 3;
export const MAX_CODE_LENGTH = 11;
/** Input longer than this (hyphens and spaces included) is refused before any work. */
export const MAX_CODE_INPUT_LENGTH = 40;

const RADIX = 32;
const BASE_CELLS = 122;
/** H3's 12 pentagon base cells: in these, the first non-zero digit can't be 1 (the deleted K axis). */
export const PENTAGON_BASE_CELLS: ReadonlySet<number> = new Set([4, 14, 24, 38, 49, 58, 63, 72, 83, 97, 107, 117]);
const K_AXES_DIGIT = 1;
const UNUSED_DIGIT = 7;
const H3_CELL_MODE = 1;
const TWO_POW_32 = 2 ** 32;

const POW7 = Array.from({ length: MAX_RESOLUTION + 1 }, (_, i) => 7 ** i);
/** Payload values used by one resolution: every (base cell, digits) pair, pentagon-deleted ones included. */
const VALUES_AT = POW7.map((power) => BASE_CELLS * power);
const OFFSET = PAYLOAD_LENGTH.map((length, res) => {
  let offset = 0;
  for (let coarser = 0; coarser < res; coarser++) if (PAYLOAD_LENGTH[coarser] === length) offset += VALUES_AT[coarser];
  return offset;
});
const RESOLUTIONS_BY_PAYLOAD_LENGTH: number[][] = [];
PAYLOAD_LENGTH.forEach((length, res) => (RESOLUTIONS_BY_PAYLOAD_LENGTH[length] ??= []).push(res));

/** Character code → value, −1 when not accepted. Lower case and the look-alikes I, L, O are accepted. */
const VALUE_OF = new Int8Array(128).fill(-1);
for (let value = 0; value < RADIX; value++) {
  VALUE_OF[HEX_CODE_ALPHABET.charCodeAt(value)] = value;
  VALUE_OF[HEX_CODE_ALPHABET.toLowerCase().charCodeAt(value)] = value;
}
for (const [alias, value] of [['I', 1], ['L', 1], ['O', 0]] as const) {
  VALUE_OF[alias.charCodeAt(0)] = value;
  VALUE_OF[alias.toLowerCase().charCodeAt(0)] = value;
}

// ---------------------------------------------------------------- check character

/**
 * The check is Damm's scheme over the quasigroup x∘y = α·x ⊕ y of GF(32)
 * (α = the polynomial x, modulus x⁵ + x² + 1). It is a Latin square, so every
 * single substitution changes the result, and α ≠ 1 makes it totally
 * anti-symmetric, so every adjacent transposition does too (ADR 0009 has the
 * two-line proof; hexcode.spec.ts checks both exhaustively). The state starts
 * at the payload length so that a dropped or added leading "0" is noticed too.
 */
function step(state: number, value: number): number {
  const doubled = state << 1;
  return (doubled & 0x20 ? doubled ^ 0x25 : doubled) ^ value;
}

function checkValue(payload: ArrayLike<number>, length: number): number {
  let state = length;
  for (let i = 0; i < length; i++) state = step(state, payload[i]);
  // The check c is the value with state∘c = 0, i.e. c = α·state.
  return step(state, 0);
}

/** True when the last value is the right check for the ones before it. */
function checkHolds(values: ArrayLike<number>, length: number): boolean {
  const payloadLength = length - 1;
  let state = payloadLength;
  for (let i = 0; i < length; i++) state = step(state, values[i]);
  return state === 0;
}

/** The check character for a payload (alphabet characters only). */
export function hexCodeCheckCharacter(payload: string): string {
  const values = toValues(payload.toUpperCase());
  if (values === undefined) throw new InvalidCodeError('the payload holds a character outside the hex code alphabet', 'bad_character');
  return HEX_CODE_ALPHABET[checkValue(values, values.length)];
}

/** True when a compact code's last character is the right check for the rest; says nothing about the cell. */
export function hexCodeCheckHolds(code: string): boolean {
  const values = toValues(code.toUpperCase());
  return values !== undefined && values.length >= 2 && checkHolds(values, values.length);
}

function toValues(text: string): number[] | undefined {
  const values: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const value = code < 128 ? VALUE_OF[code] : -1;
    if (value < 0) return undefined;
    values.push(value);
  }
  return values;
}

// ---------------------------------------------------------------- errors

export type InvalidCodeReason =
  | 'empty'
  | 'too_long'
  | 'bad_character'
  | 'bad_length'
  | 'check_failed'
  | 'out_of_range'
  | 'pentagon_deleted_cell';

/**
 * A hex code that does not name an H3 cell; `reason` says what is wrong,
 * `suggestions` what was likely meant (canonical codes, likeliest first). Both
 * go to the client as `error.details` so that it can offer the fix without
 * parsing the message.
 */
export class InvalidCodeError extends DomainError {
  readonly code = 'INVALID_CODE';
  readonly status = 400;
  override readonly details: Readonly<{ reason: InvalidCodeReason; suggestions: readonly string[] }>;
  constructor(
    message: string,
    readonly reason: InvalidCodeReason,
    override readonly field: string = 'code',
    readonly suggestions: readonly string[] = [],
  ) {
    super(message);
    this.details = { reason, suggestions };
  }

  /** The same error about another request field (`address`, `items[3].code`). */
  forField(field: string): InvalidCodeError {
    return new InvalidCodeError(this.message, this.reason, field, this.suggestions);
  }
}

/** An H3 index that is not a valid cell (hexCodeFromCell's input). */
export class InvalidCellError extends DomainError {
  readonly code = 'INVALID_CELL';
  readonly status = 400;
  constructor(message: string, override readonly field: string = 'cell') {
    super(message);
  }
}

// ---------------------------------------------------------------- H3 index bits

const HEX_DIGIT = new Int8Array(128).fill(-1);
for (let v = 0; v < 16; v++) {
  HEX_DIGIT[v.toString(16).charCodeAt(0)] = v;
  HEX_DIGIT[v.toString(16).toUpperCase().charCodeAt(0)] = v;
}
const IS_PENTAGON = new Uint8Array(BASE_CELLS);
for (const baseCell of PENTAGON_BASE_CELLS) IS_PENTAGON[baseCell] = 1;
const POW8 = Array.from({ length: MAX_RESOLUTION + 1 }, (_, i) => 8 ** i);

/**
 * Resolution of the cell cellPayloadValue last read. A module-level scratch
 * rather than a returned pair: encoding is on the hot path of bulk requests,
 * and the codec is synchronous.
 */
let lastResolution = 0;

/** Why cellPayloadValue refused an index, for the error message. */
let lastRefusal = '';

/**
 * The payload value of a valid H3 cell index, or −1 when it is not one (and
 * lastRefusal says why) — the rules of H3's isValidCell: high bit clear, cell
 * mode, reserved bits clear, base cell below 122, digits 0–6 up to the
 * resolution and 7 after it, and no pentagon child in the deleted K direction.
 * Read as two 32-bit halves, since the 64 bits don't fit a double.
 */
function cellPayloadValue(cell: string): number {
  const length = cell.length;
  if (length < 9 || length > 16) return refuse('an H3 cell index is 15 hexadecimal characters');
  const split = length - 8;
  let high = 0;
  let low = 0;
  for (let i = 0; i < length; i++) {
    const c = cell.charCodeAt(i);
    const v = c < 128 ? HEX_DIGIT[c] : -1;
    if (v < 0) return refuse('an H3 cell index is 15 hexadecimal characters');
    if (i < split) high = high * 16 + v;
    else low = low * 16 + v;
  }
  // Bits 63–59 (high bits 31–27): the reserved high bit, then mode 1.
  if (high >>> 27 !== H3_CELL_MODE || ((high >>> 24) & 0x7) !== 0) return refuse('not an H3 cell index (mode or reserved bits)');
  const resolution = (high >>> 20) & 0xf;
  const baseCell = (high >>> 13) & 0x7f;
  if (baseCell >= BASE_CELLS) return refuse(`base cell ${baseCell} does not exist`);
  let value = baseCell;
  let firstNonZero = 0;
  for (let r = 1; r <= MAX_RESOLUTION; r++) {
    // Digit r sits at bits 3(15−r)…3(15−r)+2; digit 5 straddles the two halves.
    const shift = 3 * (MAX_RESOLUTION - r);
    const digit = shift >= 32 ? (high >>> (shift - 32)) & 7 : shift <= 29 ? (low >>> shift) & 7 : ((low >>> 30) | (high << 2)) & 7;
    if (r > resolution) {
      if (digit !== UNUSED_DIGIT) return refuse(`digit ${r} is set beyond the resolution ${resolution}`);
    } else {
      if (digit === UNUSED_DIGIT) return refuse(`digit ${r} is 7, which is no direction`);
      if (firstNonZero === 0) firstNonZero = digit;
      value = value * 7 + digit;
    }
  }
  if (firstNonZero === K_AXES_DIGIT && IS_PENTAGON[baseCell] === 1) return refuse('a pentagon cell has no child in the deleted K direction');
  lastResolution = resolution;
  return OFFSET[resolution] + value;
}

function refuse(why: string): number {
  lastRefusal = why;
  return -1;
}

/**
 * The payload (check excluded) → H3 index, or why it names no cell: a value
 * beyond the last cell of its length, or a pentagon's deleted K child.
 */
function cellOfPayload(values: ArrayLike<number>, length: number): string | 'out_of_range' | 'pentagon_deleted_cell' {
  let value = 0;
  for (let i = 0; i < length; i++) value = value * RADIX + values[i];
  const resolutions = RESOLUTIONS_BY_PAYLOAD_LENGTH[length];
  let resolution = -1;
  for (let i = 0; resolutions !== undefined && i < resolutions.length; i++) {
    if (value < OFFSET[resolutions[i]] + VALUES_AT[resolutions[i]]) {
      resolution = resolutions[i];
      break;
    }
  }
  if (resolution < 0) return 'out_of_range';
  let local = value - OFFSET[resolution];
  // Digits past the resolution are all 7: 7·(8^k−1)/7 = 8^k − 1 for the k unused ones.
  let digitBits = POW8[MAX_RESOLUTION - resolution] - 1;
  let coarsestNonZero = 0;
  for (let r = resolution; r >= 1; r--) {
    const digit = local % 7;
    local = (local - digit) / 7;
    if (digit !== 0) coarsestNonZero = digit;
    digitBits += digit * POW8[MAX_RESOLUTION - r];
  }
  const baseCell = local;
  if (coarsestNonZero === K_AXES_DIGIT && IS_PENTAGON[baseCell] === 1) return 'pentagon_deleted_cell';
  const upperDigits = Math.floor(digitBits / TWO_POW_32);
  const high = (H3_CELL_MODE << 27) | (resolution << 20) | (baseCell << 13) | upperDigits;
  const low = digitBits - upperDigits * TWO_POW_32;
  lastResolution = resolution;
  return high.toString(16) + low.toString(16).padStart(8, '0');
}

// ---------------------------------------------------------------- codec

const SCRATCH = new Uint8Array(MAX_CODE_LENGTH);

/** H3 index (hex string) → canonical hex code: upper case, no hyphens, check character last. */
export function hexCodeFromCell(cell: string): string {
  let value = typeof cell === 'string' ? cellPayloadValue(cell) : -1;
  if (value < 0) throw new InvalidCellError(typeof cell === 'string' ? lastRefusal : 'an H3 cell index is a string');
  const length = PAYLOAD_LENGTH[lastResolution];
  for (let i = length - 1; i >= 0; i--) {
    const digit = value % RADIX;
    SCRATCH[i] = digit;
    value = (value - digit) / RADIX;
  }
  let state = length;
  let code = '';
  for (let i = 0; i < length; i++) {
    state = step(state, SCRATCH[i]);
    code += HEX_CODE_ALPHABET[SCRATCH[i]];
  }
  return code + HEX_CODE_ALPHABET[step(state, 0)];
}

export interface ParsedHexCode {
  /** Canonical form. */
  code: string;
  /** H3 index. */
  cell: string;
  resolution: number;
}

/**
 * Any accepted shape — compact, hyphenated or spaced, any case, I/L/O for
 * 1/1/0 — to the code, its cell and resolution. Throws InvalidCodeError naming
 * what is wrong (with suggestions when only the check fails).
 */
export function parseHexCode(input: string, field = 'code', { suggest = true }: { suggest?: boolean } = {}): ParsedHexCode {
  if (typeof input !== 'string') throw new InvalidCodeError('the hex code must be a string', 'bad_character', field);
  const values = normalise(input, field, suggest);
  const length = values.length;
  if (length < MIN_CODE_LENGTH || length > MAX_CODE_LENGTH) {
    const suggestions = suggest ? suggestionsFor(values) : [];
    throw new InvalidCodeError(`a hex code has ${MIN_CODE_LENGTH} to ${MAX_CODE_LENGTH} characters; this one has ${length}`, 'bad_length', field, suggestions);
  }
  if (!checkHolds(values, length)) {
    // Suggesting tries some 350 candidates: callers checking codes in bulk may skip it.
    const suggestions = suggest ? suggestionsFor(values) : [];
    const more = suggestions.length > 3 ? ` (or one of ${suggestions.length - 3} more)` : '';
    const hint = suggestions.length > 0 ? `; did you mean ${suggestions.slice(0, 3).map(formatCompact).join(', ')}${more}?` : '';
    throw new InvalidCodeError(`the check character does not match: the code is mistyped${hint}`, 'check_failed', field, suggestions);
  }
  const cell = cellOfPayload(values, length - 1);
  if (cell === 'out_of_range') throw new InvalidCodeError(`no H3 cell has this ${length}-character code (its value is beyond the last cell)`, cell, field);
  if (cell === 'pentagon_deleted_cell') throw new InvalidCodeError('no H3 cell has this code: a pentagon has no child in the deleted K direction', cell, field);
  const resolution = lastResolution;
  let code = '';
  for (const v of values) code += HEX_CODE_ALPHABET[v];
  return { code, cell, resolution };
}

/** Like parseHexCode, without exceptions or suggestions: null when the input is no valid code (scanning free text). */
export function tryParseHexCode(input: string): ParsedHexCode | null {
  if (typeof input !== 'string' || input.length > MAX_CODE_INPUT_LENGTH) return null;
  const values: number[] = [];
  for (let i = 0; i < input.length; i++) {
    const ch = input.charCodeAt(i);
    if (ch === 0x2d || ch === 0x20 || ch === 0x09) continue;
    const value = ch < 128 ? VALUE_OF[ch] : -1;
    if (value < 0) return null;
    values.push(value);
  }
  const length = values.length;
  if (length < MIN_CODE_LENGTH || length > MAX_CODE_LENGTH || !checkHolds(values, length)) return null;
  const cell = cellOfPayload(values, length - 1);
  if (cell === 'out_of_range' || cell === 'pentagon_deleted_cell') return null;
  const resolution = lastResolution;
  let code = '';
  for (const v of values) code += HEX_CODE_ALPHABET[v];
  return { code, cell, resolution };
}

/** Display form of a code already in canonical form (hexCodeFromCell's output); no validation. */
export function displayHexCode(canonical: string): string {
  return formatCompact(canonical);
}

/** Any accepted input shape → H3 index; throws InvalidCodeError. */
export function cellFromHexCode(code: string, field = 'code', options: { suggest?: boolean } = {}): string {
  return parseHexCode(code, field, options).cell;
}

/** Hyphenated display form, in groups of three or four (`4G7-QW2-K9XM` at the default resolution). */
export function formatHexCode(code: string, field = 'code'): string {
  return formatCompact(parseHexCode(code, field).code);
}

/** The cell at `resolution` (default: the address resolution) holding a WGS 84 point, as a hex code. */
export function hexCodeForPoint(lat: number, lng: number, resolution: number = DEFAULT_ADDRESS_RESOLUTION): string {
  assertPoint(lat, lng);
  assertResolution(resolution);
  return hexCodeFromCell(latLngToCell(lat, lng, resolution));
}

/**
 * The cell at `resolution` holding a WGS 84 point, coded, with its centre: what
 * hexCodeForPoint then pointForHexCode answer, without parsing back the code
 * just made (the round trip is exact: ADR 0009).
 */
export function codedCellForPoint(lat: number, lng: number, resolution: number = DEFAULT_ADDRESS_RESOLUTION): { lat: number; lng: number; code: string; resolution: number; cell: string } {
  assertPoint(lat, lng);
  assertResolution(resolution);
  const cell = latLngToCell(lat, lng, resolution);
  const code = hexCodeFromCell(cell);
  const [centreLat, centreLng] = cellToLatLng(cell);
  return { lat: centreLat, lng: centreLng, code, resolution, cell };
}

/** Centre of the code's cell. */
export function pointForHexCode(code: string, field = 'code'): { lat: number; lng: number; code: string; resolution: number; cell: string } {
  const parsed = parseHexCode(code, field);
  const [lat, lng] = cellToLatLng(parsed.cell);
  return { lat, lng, ...parsed };
}

export function assertPoint(lat: number, lng: number): void {
  if (!isLatitude(lat)) throw new InvalidParamError('lat must be a number from -90 to 90', 'lat');
  if (!isLongitude(lng)) throw new InvalidParamError('lng must be a number from -180 to 180', 'lng');
}

export function assertResolution(resolution: number): void {
  if (!Number.isInteger(resolution) || resolution < MIN_RESOLUTION || resolution > MAX_RESOLUTION) {
    throw new InvalidParamError(`resolution must be an integer from ${MIN_RESOLUTION} to ${MAX_RESOLUTION}`, 'resolution');
  }
}

function formatCompact(code: string): string {
  const groups = Math.ceil(code.length / 4);
  const small = Math.floor(code.length / groups);
  const large = code.length % groups;
  const parts: string[] = [];
  let at = 0;
  // The longer groups go last, so the check character sits in a group of four.
  for (let g = 0; g < groups; g++) {
    const size = g < groups - large ? small : small + 1;
    parts.push(code.slice(at, at + size));
    at += size;
  }
  return parts.join('-');
}

/** Input → alphabet values, ignoring hyphens and white space; throws on anything else. */
function normalise(input: string, field: string, suggest: boolean): number[] {
  if (typeof input !== 'string' || input.trim() === '') throw new InvalidCodeError('the hex code is empty', 'empty', field);
  if (input.length > MAX_CODE_INPUT_LENGTH) throw new InvalidCodeError(`a hex code has at most ${MAX_CODE_LENGTH} characters`, 'too_long', field);
  const values: number[] = [];
  for (let i = 0; i < input.length; i++) {
    const ch = input[i];
    if (ch === '-' || ch === ' ' || ch === '\t') continue;
    const code = input.charCodeAt(i);
    const value = code < 128 ? VALUE_OF[code] : -1;
    if (value < 0) {
      const shown = /^[\x21-\x7e]$/.test(ch) ? `"${ch}"` : `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
      const suggestions = suggest && (ch === 'U' || ch === 'u') ? suggestHexCodes(input) : [];
      throw new InvalidCodeError(`character ${shown} at position ${i + 1} is not in the hex code alphabet (${HEX_CODE_ALPHABET})`, 'bad_character', field, suggestions);
    }
    values.push(value);
  }
  return values;
}

// ---------------------------------------------------------------- suggestions

/** Pairs people confuse when reading or typing; candidates made by swapping them rank first. */
const LOOK_ALIKES: readonly (readonly [string, string])[] = [
  ['0', 'D'], ['0', 'Q'], ['1', '7'], ['2', 'Z'], ['5', 'S'], ['6', 'G'], ['8', 'B'], ['9', 'G'], ['V', 'Y'], ['M', 'N'], ['K', 'X'], ['V', 'W'],
];
const LOOK_ALIKE = new Set(LOOK_ALIKES.flatMap(([a, b]) => [`${a}${b}`, `${b}${a}`]));
/**
 * Room for every candidate of the longest code: at each position exactly one
 * substitution satisfies the check, plus the adjacent transpositions that do.
 * Cutting the list shorter would drop candidates as likely as those kept.
 */
export const MAX_SUGGESTIONS = 2 * MAX_CODE_LENGTH - 1;

/**
 * Valid codes one typing slip away from a code whose check fails: look-alike
 * substitutions, then adjacent transpositions, then any other single
 * substitution; when the length itself is wrong, one character dropped or
 * added; a "U" (not in the alphabet) is tried as every character. Canonical
 * forms, most likely first, at most MAX_SUGGESTIONS. Empty for a valid code.
 */
export function suggestHexCodes(input: string): string[] {
  if (typeof input !== 'string' || input.length > MAX_CODE_INPUT_LENGTH) return [];
  const values: number[] = [];
  let unknownAt = -1;
  for (let i = 0; i < input.length; i++) {
    const ch = input[i];
    if (ch === '-' || ch === ' ' || ch === '\t') continue;
    const code = input.charCodeAt(i);
    const value = code < 128 ? VALUE_OF[code] : -1;
    if (value < 0) {
      if (unknownAt >= 0) return [];
      unknownAt = values.length;
      values.push(0);
    } else values.push(value);
  }
  if (unknownAt >= 0) {
    const found: string[] = [];
    for (let v = 0; v < RADIX; v++) {
      const candidate = values.slice();
      candidate[unknownAt] = v;
      pushIfValid(found, candidate);
    }
    return found.slice(0, MAX_SUGGESTIONS);
  }
  if (values.length >= MIN_CODE_LENGTH && values.length <= MAX_CODE_LENGTH && checkHolds(values, values.length) && namesACell(values)) return [];
  return suggestionsFor(values);
}

function suggestionsFor(values: readonly number[]): string[] {
  const found: string[] = [];
  const length = values.length;
  if (length >= MIN_CODE_LENGTH && length <= MAX_CODE_LENGTH) {
    const lookAlike: string[] = [];
    const transposed: string[] = [];
    const other: string[] = [];
    for (let i = 0; i < length; i++) {
      for (let v = 0; v < RADIX; v++) {
        if (v === values[i]) continue;
        const candidate = values.slice();
        candidate[i] = v;
        const pair = HEX_CODE_ALPHABET[values[i]] + HEX_CODE_ALPHABET[v];
        pushIfValid(LOOK_ALIKE.has(pair) ? lookAlike : other, candidate);
      }
      if (i + 1 < length && values[i] !== values[i + 1]) {
        const candidate = values.slice();
        candidate[i] = values[i + 1];
        candidate[i + 1] = values[i];
        pushIfValid(transposed, candidate);
      }
    }
    // Single substitutions are the commonest slip and adjacent transpositions the next (Verhoeff, 1969).
    found.push(...lookAlike, ...transposed, ...other);
  } else if (length === MAX_CODE_LENGTH + 1) {
    for (let i = 0; i < length; i++) pushIfValid(found, [...values.slice(0, i), ...values.slice(i + 1)]);
  } else if (length === MIN_CODE_LENGTH - 1) {
    for (let i = 0; i <= length; i++) for (let v = 0; v < RADIX; v++) pushIfValid(found, [...values.slice(0, i), v, ...values.slice(i)]);
  }
  return [...new Set(found)].slice(0, MAX_SUGGESTIONS);
}

function namesACell(values: readonly number[]): boolean {
  const cell = cellOfPayload(values, values.length - 1);
  return cell !== 'out_of_range' && cell !== 'pentagon_deleted_cell';
}

function pushIfValid(into: string[], values: number[]): void {
  const length = values.length;
  if (length < MIN_CODE_LENGTH || length > MAX_CODE_LENGTH || !checkHolds(values, length)) return;
  if (!namesACell(values)) return;
  let code = '';
  for (const v of values) code += HEX_CODE_ALPHABET[v];
  into.push(code);
}

/** Internal to the codec and its tests: the cell fields of a payload, before any validity rule. */
export const __testing = { checkValue, checkHolds, OFFSET, VALUES_AT, RESOLUTIONS_BY_PAYLOAD_LENGTH };
