import { cellToLatLng, latLngToCell } from 'h3-js';
import { DomainError } from '../../../platform/src/errors.js';
import { isLatitude, isLongitude } from '../../../platform/src/geo/geodesy.js';
import { assertPoint, DEFAULT_ADDRESS_RESOLUTION, displayHexCode, hexCodeFromCell, parseHexCode } from './hexcode.js';
import type { ReverseAddress } from './reverse-address.js';
import { cellRadiusMeters, codeSchemeProvenance, type Provenance } from './provenance.js';

/**
 * POST /v2/hexcode/bulk (interface.md: "many items → bulk hex coding"). Each
 * item is a point to code or a code to decode; an item that fails gets its own
 * error and the batch goes on. The answer is written as it is computed, in
 * chunks of CHUNK_ITEMS, so a large batch never sits whole in memory as output.
 */
export const MAX_BULK_ITEMS = 10_000;
export const CHUNK_ITEMS = 256;
const MAX_ID_LENGTH = 128;
/** Names a point item as GET /v2/reverse does (its `address`). */
export type PointNamer = (lat: number, lng: number) => ReverseAddress | null;
/** The names integrators give a code elsewhere (docs/adr/0036): an item is told to use `code`. */
const CODE_NAMES: ReadonlySet<string> = new Set(['address', 'address_code', 'hex_code', 'hexcode']);

export type BulkItemResult =
  | { index: number; id?: string | number; code: string; display: string; resolution: number; address?: ReverseAddress | null }
  | { index: number; id?: string | number; code: string; display: string; resolution: number; lat: number; lng: number; accuracy_meters: number }
  | { index: number; id?: string | number; error: { code: string; message: string; field: string; suggestions?: readonly string[] } };

/** One item: a point `{lat, lng, resolution?}` (or a code `{code}` / a bare string), each with an optional `id` echoed back. */
export function codeBulkItem(item: unknown, index: number, defaultResolution: number, name?: PointNamer): BulkItemResult {
  const at = `items[${index}]`;
  const id = isRecord(item) ? item.id : undefined;
  const echo = typeof id === 'string' || typeof id === 'number' ? { id } : {};
  try {
    if (id !== undefined && !((typeof id === 'string' && id.length <= MAX_ID_LENGTH) || (typeof id === 'number' && Number.isFinite(id)))) {
      return failed(index, {}, 'INVALID_PARAM', `id must be a string of at most ${MAX_ID_LENGTH} characters or a number`, `${at}.id`);
    }
    const given = typeof item === 'string' ? item : isRecord(item) && 'code' in item ? item.code : undefined;
    if (given !== undefined) {
      if (isRecord(item) && ('lat' in item || 'lng' in item)) return failed(index, echo, 'INVALID_PARAM', 'give either code or lat and lng, not both', at);
      const field = typeof item === 'string' ? at : `${at}.code`;
      const unknown = isRecord(item) ? Object.keys(item).find((key) => key !== 'code' && key !== 'id') : undefined;
      if (unknown) return failed(index, echo, 'INVALID_PARAM', `${unknown} is not a property of a code item; accepted: code, id`, `${at}.${unknown}`);
      const parsed = parseHexCode(given as string, field);
      const [lat, lng] = cellToLatLng(parsed.cell);
      return { index, ...echo, code: parsed.code, display: displayHexCode(parsed.code), resolution: parsed.resolution, lat, lng, accuracy_meters: cellRadiusMeters(parsed.cell) };
    }
    if (!isRecord(item)) return failed(index, echo, 'INVALID_PARAM', 'an item is a hex code string, {code} or {lat, lng}', at);
    const misnamed = Object.keys(item).find((key) => CODE_NAMES.has(key));
    if (misnamed && !('lat' in item) && !('lng' in item)) return failed(index, echo, 'INVALID_PARAM', `a code to decode is {code}, not {${misnamed}}`, `${at}.${misnamed}`);
    const { lat, lng } = item;
    if (typeof lat !== 'number') return failed(index, echo, 'INVALID_PARAM', 'lat must be a number from -90 to 90', `${at}.lat`);
    if (typeof lng !== 'number') return failed(index, echo, 'INVALID_PARAM', 'lng must be a number from -180 to 180', `${at}.lng`);
    const resolution = item.resolution ?? defaultResolution;
    if (typeof resolution !== 'number' || !Number.isInteger(resolution) || resolution < 0 || resolution > 15) {
      return failed(index, echo, 'INVALID_PARAM', 'resolution must be an integer from 0 to 15', `${at}.resolution`);
    }
    const unknown = Object.keys(item).find((key) => key !== 'lat' && key !== 'lng' && key !== 'resolution' && key !== 'id');
    if (unknown) return failed(index, echo, 'INVALID_PARAM', `${unknown} is not a property of a point item${CODE_NAMES.has(unknown) ? ' (a code to decode is {code})' : ''}; accepted: lat, lng, resolution, id`, `${at}.${unknown}`);
    assertPoint(lat, lng);
    const code = hexCodeFromCell(latLngToCell(lat, lng, resolution));
    return { index, ...echo, code, display: displayHexCode(code), resolution, ...(name ? { address: name(lat, lng) } : {}) };
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    const field = error.field && !error.field.startsWith(at) ? `${at}.${error.field}` : (error.field ?? at);
    const suggestions = 'suggestions' in error && Array.isArray(error.suggestions) && error.suggestions.length > 0 ? { suggestions: error.suggestions as string[] } : {};
    return { index, ...echo, error: { code: error.code, message: error.message, field, ...suggestions } };
  }
}

/** A point item's `address`, left for whoever names points (the places index lives on the main thread: ADR 0041). */
export interface AddressGap {
  lat: number;
  lng: number;
}
/** A piece of the answer's JSON text, or the place of a point item's `address` value. */
export type AnswerPiece = string | AddressGap;

/**
 * The whole answer, envelope included, as a lazy sequence of JSON text chunks:
 * `{"success":true,"data":{"items":[…],"count":…,"failed":…,"provenance":…}}`.
 * The provenance comes last because its accuracy is the largest among the
 * decoded cells, known only at the end; it is null when no item returned a point.
 */
export function* bulkAnswerChunks(items: readonly unknown[], defaultResolution: number, name?: PointNamer): Generator<string> {
  for (const pieces of bulkAnswerPieces(items, defaultResolution, name !== undefined)) {
    yield pieces.length === 1 && typeof pieces[0] === 'string' ? pieces[0] : pieces.map((piece) => (typeof piece === 'string' ? piece : JSON.stringify(name!(piece.lat, piece.lng)))).join('');
  }
}

/**
 * bulkAnswerChunks's chunks (one per CHUNK_ITEMS items, then the tail) before
 * the points are named: with `named`, each coded point's JSON ends in
 * `"address":`, then an AddressGap, then `}`; filling every gap with the
 * JSON of the point's name gives the named answer, byte for byte. Coding
 * happens where the places are not (a worker thread); naming where they are.
 */
export function* bulkAnswerPieces(items: readonly unknown[], defaultResolution: number, named: boolean): Generator<AnswerPiece[]> {
  let failures = 0;
  let widest = -1;
  let pieces: AnswerPiece[] = [];
  let text = '{"success":true,"data":{"items":[';
  for (let index = 0; index < items.length; index++) {
    const point = codedPointJson(items[index], index, defaultResolution);
    if (point !== undefined) {
      if (index > 0) text += ',';
      if (named) {
        const { lat, lng } = items[index] as { lat: number; lng: number };
        pieces.push(`${text}${point},"address":`, { lat, lng });
        text = '}';
      } else {
        text += `${point}}`;
      }
      if ((index + 1) % CHUNK_ITEMS === 0) {
        pieces.push(text);
        yield pieces;
        pieces = [];
        text = '';
      }
      continue;
    }
    const result = codeBulkItem(items[index], index, defaultResolution);
    if ('error' in result) failures++;
    else if ('accuracy_meters' in result) widest = Math.max(widest, result.accuracy_meters);
    const json = JSON.stringify(result);
    if (index > 0) text += ',';
    if (named && !('error' in result) && !('accuracy_meters' in result)) {
      // A coded point (its lat and lng were checked numbers): the address is the last member, as codeBulkItem would put it.
      const { lat, lng } = items[index] as { lat: number; lng: number };
      pieces.push(`${text}${json.slice(0, -1)},"address":`, { lat, lng });
      text = '}';
    } else {
      text += json;
    }
    if ((index + 1) % CHUNK_ITEMS === 0) {
      pieces.push(text);
      yield pieces;
      pieces = [];
      text = '';
    }
  }
  const provenance: Provenance | null = widest < 0 ? null : codeSchemeProvenance(widest);
  pieces.push(`${text}],"count":${items.length},"failed":${failures},"provenance":${JSON.stringify(provenance)}}}`);
  yield pieces;
}

/**
 * The answer to a plain point item (`{lat, lng}`, with `resolution` and `id`
 * or not, every one valid) as `JSON.stringify(codeBulkItem(…))` writes it,
 * without its closing brace; undefined for any other item, which
 * codeBulkItem answers (a code to decode, an error, an object that is not a
 * plain one). Issue 49: most items of a bulk are such points, and building
 * the answer object, its text and the item's field name was most of an
 * item's cost beside finding its cell. The text is the same: a code and its
 * display form are letters, digits and hyphens; numbers print as JSON does.
 */
function codedPointJson(item: unknown, index: number, defaultResolution: number): string | undefined {
  if (typeof item !== 'object' || item === null || Object.getPrototypeOf(item) !== Object.prototype) return undefined;
  for (const key in item) if (key !== 'lat' && key !== 'lng' && key !== 'resolution' && key !== 'id') return undefined;
  const { lat, lng, id, resolution: given } = item as Record<string, unknown>;
  if (id !== undefined && !((typeof id === 'string' && id.length <= MAX_ID_LENGTH) || (typeof id === 'number' && Number.isFinite(id)))) return undefined;
  if (!isLatitude(lat) || !isLongitude(lng)) return undefined;
  const resolution = given ?? defaultResolution;
  if (typeof resolution !== 'number' || !Number.isInteger(resolution) || resolution < 0 || resolution > 15) return undefined;
  const code = hexCodeFromCell(latLngToCell(lat, lng, resolution));
  return `{"index":${index}${id === undefined ? '' : `,"id":${JSON.stringify(id)}`},"code":"${code}","display":"${displayHexCode(code)}","resolution":${resolution}`;
}

function failed(index: number, echo: { id?: string | number }, code: string, message: string, field: string): BulkItemResult {
  return { index, ...echo, error: { code, message, field } };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
