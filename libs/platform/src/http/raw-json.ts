import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { BACKSLASH, CLOSE_BRACE, CLOSE_BRACKET, COLON, COMMA, LOWER_U, OPEN_BRACE, OPEN_BRACKET, QUOTE, type JsonBodyLimit, type JsonBodyLimits } from './json-syntax.js';
import { mergeRouteConfig } from './route-config.js';

/**
 * A JSON body a route takes as bytes (ADR 0041): the parser checks its shape
 * (the route's budget or JSON_BODY_LIMITS, on the bytes, as for any route) but
 * does not JSON.parse it, so that a thread can parse, validate and answer it
 * off the event loop. What the main thread needs before that — the items a
 * bulk call counts against the quota — is read from the same scan: the length
 * of each top-level array member the route names.
 */
export class RawJson {
  constructor(
    /** The body as received (not a copy: whoever hands it to a thread copies or transfers it). */
    readonly bytes: Buffer,
    /** A `\uD800`–`\uDFFF` escape occurs in a string: the parsed value must then be checked for lone surrogates. */
    readonly surrogateEscape: boolean,
    private readonly lengths: ReadonlyMap<string, number>,
  ) {}

  /**
   * Elements of the array in top-level member `field`, as the bytes spell it
   * (the last such member, as JSON.parse keeps the last); undefined when the
   * body is not an object, has no such member, or its value is not an array.
   */
  arrayLength(field: string): number | undefined {
    return this.lengths.get(field);
  }
}

export interface RawJsonRoute {
  /** Top-level members whose array length the scan reads (e.g. `items`, for `itemsIn`). */
  arrays: readonly string[];
}

const RAW_KEY = 'rawJson';

/** Declares that the route takes its JSON body unparsed, as a `RawJson` (read it with `@RawBody()`). */
export function RawJsonBody(route: RawJsonRoute = { arrays: [] }): MethodDecorator {
  return mergeRouteConfig({ [RAW_KEY]: route });
}

export function rawJsonRouteOf(request: FastifyRequest): RawJsonRoute | undefined {
  return (request.routeOptions?.config as { [RAW_KEY]?: RawJsonRoute } | undefined)?.[RAW_KEY];
}

/**
 * The body of a `@RawJsonBody` route: a `RawJson`, or undefined when the
 * request had none. A custom parameter, so the global validation pipe leaves
 * it alone (validation happens where it is parsed).
 */
export const RawBody = createParamDecorator((_data: unknown, context: ExecutionContext): RawJson | undefined => {
  const body = context.switchToHttp().getRequest<FastifyRequest>().body;
  return body instanceof RawJson ? body : undefined;
});


export interface JsonBytesScan {
  breach?: JsonBodyLimit;
  surrogateEscape: boolean;
  /** Lengths of the named top-level arrays (see RawJson.arrayLength). */
  lengths: Map<string, number>;
}


function isWhitespace(byte: number): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

/**
 * scanJsonText's pass (json-body.ts) over UTF-8 bytes: the same limits,
 * counted the same way (every structural character is ASCII, and no byte of
 * a multi-byte UTF-8 sequence is below 0x80), plus the lengths of the
 * top-level array members named in `arrays`. Like scanJsonText it does not
 * decide whether the bytes are JSON: whoever parses them does, afterwards;
 * a length read from bytes that are not JSON counts for nothing but the quota.
 */
export function scanJsonBytes(bytes: Uint8Array, limits: JsonBodyLimits, arrays: readonly string[] = []): JsonBytesScan {
  const scan = new ByteScan(bytes, limits, arrays);
  scan.advance(bytes.length);
  return scan.result();
}

/**
 * Bytes scanned between two pauses of scanJsonBytesInSlices: ~0.3 ms on the
 * 2-core bench machine when idle.
 * Scanned at once, a 10,000-point bulk body (~340 kB) held the event loop
 * 5–13 ms under the fairness bench's 32-key bulk attack (docs/adr/0051).
 */
export const SCAN_SLICE_BYTES = 32 * 1024;

/**
 * scanJsonBytes, pausing (a `yield`) after every `sliceBytes` bytes, so that a
 * large body is scanned a slice per turn of the event loop (`stepsInTurns`);
 * the generator returns the scan.
 */
export function* scanJsonBytesInSlices(bytes: Uint8Array, limits: JsonBodyLimits, arrays: readonly string[] = [], sliceBytes = SCAN_SLICE_BYTES): Generator<void, JsonBytesScan, void> {
  const scan = new ByteScan(bytes, limits, arrays);
  while (!scan.advance(sliceBytes)) yield;
  return scan.result();
}

/** The scan's state, kept between two slices. */
class ByteScan {
  private index = 0;
  private depth = 0;
  private values = 0;
  private inString = false;
  private surrogateEscape = false;
  // Top-level member names: where the one being read starts, whether the next string at depth 1 is a name,
  // the named member whose value comes next, and the array being counted (its commas, whether it has an element).
  private nameStart = -1;
  private expectName = false;
  private pending: string | undefined;
  private counting: string | undefined;
  private commas = 0;
  private empty = true;
  private breach: JsonBodyLimit | undefined;
  private readonly isObject: Uint8Array;
  private readonly members: Uint32Array;
  private readonly lengths = new Map<string, number>();

  constructor(
    private readonly bytes: Uint8Array,
    private readonly limits: JsonBodyLimits,
    private readonly arrays: readonly string[],
  ) {
    this.isObject = new Uint8Array(limits.maxDepth + 1);
    this.members = new Uint32Array(limits.maxDepth + 1);
  }

  result(): JsonBytesScan {
    return { ...(this.breach ? { breach: this.breach } : {}), surrogateEscape: this.surrogateEscape, lengths: this.lengths };
  }

  /** Scans up to `count` more bytes; true once the scan is over (the end of the bytes, or a breach). */
  advance(count: number): boolean {
    const { bytes, limits, arrays, isObject, members, lengths } = this;
    const tracking = arrays.length > 0;
    // The loop works on locals, stored back at the end of the slice: as fast as one pass over the whole body.
    let { index, depth, values, inString, surrogateEscape, nameStart, expectName, pending, counting, commas, empty } = this;
    let breach: JsonBodyLimit | undefined;
    const end = Math.min(bytes.length, index + count);
    scan: for (; index < end; index++) {
      const byte = bytes[index];
      if (inString) {
        if (byte === QUOTE) {
          inString = false;
          if (nameStart >= 0) {
            pending = memberName(bytes, nameStart, index + 1);
            nameStart = -1;
          }
        } else if (byte === BACKSLASH) {
          if (bytes[index + 1] === LOWER_U && isSurrogateEscape(bytes, index + 2)) surrogateEscape = true;
          index++;
        }
        continue;
      }
      if (tracking && !isWhitespace(byte)) {
        if (depth === 1 && pending !== undefined && byte !== COLON && byte !== QUOTE) {
          // The first character of a top-level member's value: only an array is counted.
          const name = pending;
          pending = undefined;
          if (byte === OPEN_BRACKET && arrays.includes(name)) {
            counting = name;
            commas = 0;
            empty = true;
          }
        } else if (counting !== undefined && depth === 2 && byte !== CLOSE_BRACKET) {
          empty = false;
        }
      }
      switch (byte) {
        case QUOTE:
          inString = true;
          if (tracking && depth === 1 && expectName) {
            nameStart = index;
            expectName = false;
          } else if (tracking && depth === 1) {
            pending = undefined;
          }
          break;
        case OPEN_BRACKET:
        case OPEN_BRACE:
          if (++depth > limits.maxDepth) {
            breach = 'depth';
            break scan;
          }
          if (++values > limits.maxValues) {
            breach = 'values';
            break scan;
          }
          isObject[depth] = byte === OPEN_BRACE ? 1 : 0;
          members[depth] = 0;
          if (depth === 1) expectName = byte === OPEN_BRACE;
          break;
        case CLOSE_BRACKET:
        case CLOSE_BRACE:
          if (depth === 2 && counting !== undefined) {
            lengths.set(counting, empty ? 0 : commas + 1);
            counting = undefined;
          }
          if (depth > 0) depth--;
          break;
        case COLON:
          if (isObject[depth] === 1 && ++members[depth] > limits.maxMembers) {
            breach = 'members';
            break scan;
          }
          // A later member of the same name replaces this one, whatever its value (JSON.parse keeps the last).
          if (depth === 1 && pending !== undefined) lengths.delete(pending);
          break;
        case COMMA:
          if (++values > limits.maxValues) {
            breach = 'values';
            break scan;
          }
          if (depth === 1) {
            expectName = isObject[1] === 1;
            pending = undefined;
          } else if (depth === 2 && counting !== undefined) {
            commas++;
          }
          break;
      }
    }
    Object.assign(this, { index, depth, values, inString, surrogateEscape, nameStart, expectName, pending, counting, commas, empty });
    this.breach = breach;
    return breach !== undefined || index >= bytes.length;
  }
}

/** The name of a member, its quotes included in `start`–`end`; escapes are decoded as JSON.parse would (undefined if it would refuse them). */
function memberName(bytes: Uint8Array, start: number, end: number): string | undefined {
  const raw = Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start);
  if (!raw.includes(BACKSLASH)) return raw.toString('utf8', 1, raw.length - 1);
  try {
    return JSON.parse(raw.toString('utf8')) as string;
  } catch {
    return undefined;
  }
}

/** `DXXX` with X ≥ 8 in the first place (as json-body.ts's isSurrogateEscape, on bytes). */
function isSurrogateEscape(bytes: Uint8Array, at: number): boolean {
  const first = bytes[at] | 0x20;
  if (first !== 0x64) return false;
  const second = bytes[at + 1] | 0x20;
  return (second >= 0x38 && second <= 0x39) || (second >= 0x61 && second <= 0x66);
}
