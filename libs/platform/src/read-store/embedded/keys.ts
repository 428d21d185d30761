/**
 * Key layout of the embedded read store. Every key is an lmdb-js
 * ordered-binary array, stored as raw bytes (`keyEncoding: 'binary'`) so that
 * bounds can be built byte-exactly and LMDB's memcmp order is the query order:
 *
 *   docs   [collection, id]                             → { p: position, d?: document }
 *   index  [collection, indexName, ...fieldValues, id]  → id
 *
 * Ordered-binary writes the parts of an array separated by a 0x00 byte, with
 * null as a lone 0x00, negative numbers first byte 0x08–0x0F, positive numbers
 * 0x10–0x17 (always 9 bytes inside an array), strings from 0x1B up (UTF-8,
 * which never produces 0xFE or 0xFF). Booleans would sort between null and the
 * numbers; they are written as 0xFE 0x01 / 0xFE 0x02 instead so that one field
 * holding several types sorts as MongoDB sorts it: null, numbers, strings,
 * booleans (`TYPE_ORDER`). Strings over 63 characters that contain control
 * characters below 0x05 may sort slightly off (ordered-binary escapes those
 * only in short strings); nothing in the read models stores such values.
 */
import * as lmdb from 'lmdb';
import type { Scalar } from '../read-store.port.js';
import type { QueryPlan, ScalarType } from '../query-plan.js';

/** LMDB's largest key with the default 4 KiB page. */
export const MAX_KEY_BYTES = 1978;

// Exported by lmdb-js at run time (it is ordered-binary's toBufferKey) but missing from its typings.
const { keyValueToBuffer } = lmdb as typeof lmdb & { keyValueToBuffer(key: unknown): Uint8Array };

const FALSE = Buffer.from([0xfe, 0x01]);
const TRUE = Buffer.from([0xfe, 0x02]);

type KeyPart = string | number | null | Uint8Array;

/** A half-open byte range [lower, upper). */
export interface Span {
  lower: Buffer;
  upper: Buffer;
}

export function encode(parts: KeyPart[]): Buffer {
  // keyValueToBuffer answers a view into a shared scratch buffer: copy it.
  return Buffer.from(keyValueToBuffer(parts));
}

function part(value: Scalar): KeyPart {
  if (typeof value === 'boolean') return value ? TRUE : FALSE;
  return value;
}

/**
 * The smallest key above every key that extends `key` by whole parts
 * (`key` 0x00 …). A longer string than `key`'s last part continues with a byte
 * of at least 0x01, so it is not covered; neither is anything else.
 */
export function after(key: Buffer): Buffer {
  return Buffer.concat([key, Buffer.from([0x01])]);
}

/** Every key that extends `parts` by at least one whole part. */
export function prefixSpan(parts: KeyPart[]): Span {
  const key = encode(parts);
  return { lower: Buffer.concat([key, Buffer.from([0x00])]), upper: after(key) };
}

export function docKey(collection: string, id: string): Buffer {
  return encode([collection, id]);
}

/** Each collection's document keys start with these bytes: `[collection, …` up to the separator before the id. */
const docPrefixes = new Map<string, Buffer>();
/** Where docKeyForLookup writes; a lookup copies the key into LMDB's own before the next one is written. */
let lookupScratch = Buffer.allocUnsafe(256);

/**
 * docKey for a lookup that uses it at once (a `get`), not to be kept: the
 * next call overwrites it. An id of printable ASCII (every id the read
 * models write: `<account>:<loan>`, hashes, uuids) is written as ordered-
 * binary writes it inside an array (its bytes as they are, when it starts at
 * or above 0x1C and holds nothing at or below 0x04) after the collection's
 * prefix, encoded once; any other id goes through ordered-binary. A find of
 * 10,000 documents spent a sixth of its time in ordered-binary here, mostly
 * allocating its 8 KiB scratch buffers and their views (docs/adr/0067).
 */
export function docKeyForLookup(collection: string, id: string): Uint8Array {
  const length = id.length;
  if (length === 0 || id.charCodeAt(0) < 0x1c) return keyValueToBuffer([collection, id]);
  for (let i = 0; i < length; i++) {
    const code = id.charCodeAt(i);
    if (code <= 0x04 || code >= 0x7f) return keyValueToBuffer([collection, id]);
  }
  let prefix = docPrefixes.get(collection);
  if (!prefix) {
    prefix = Buffer.concat([encode([collection]), Buffer.from([0x00])]);
    docPrefixes.set(collection, prefix);
  }
  const size = prefix.length + length;
  if (size > lookupScratch.length) lookupScratch = Buffer.allocUnsafe(Math.max(size, lookupScratch.length * 2));
  prefix.copy(lookupScratch, 0);
  lookupScratch.write(id, prefix.length, 'latin1');
  return lookupScratch.subarray(0, size);
}

export function indexKey(collection: string, index: string, values: Scalar[], id: string): Buffer {
  return encode([collection, index, ...values.map(part), id]);
}

export function indexPrefix(collection: string, index: string, equals: Scalar[]): KeyPart[] {
  return [collection, index, ...equals.map(part)];
}

/**
 * The keys a plan reads. A one-sided range stays within its bound's type, as a
 * MongoDB range does: `gt: 5` runs to the largest number, not into the strings.
 */
export function planSpan(collection: string, plan: QueryPlan): Span {
  const prefix = indexPrefix(collection, plan.index.name, plan.equals);
  const bound = plan.lower ?? plan.upper;
  if (!bound) return prefixSpan(prefix);

  const at = (value: Scalar): Buffer => encode([...prefix, part(value)]);
  const type = typeof bound.value as Exclude<ScalarType, 'null'>;
  const typeStart: Record<typeof type, () => Buffer> = {
    number: () => at(-Infinity),
    string: () => at(''),
    boolean: () => at(false),
  };
  const typeEnd: Record<typeof type, () => Buffer> = {
    number: () => after(at(Infinity)),
    string: () => encode([...prefix, FALSE]),
    boolean: () => after(at(true)),
  };
  const lower = plan.lower ? (plan.lower.inclusive ? at(plan.lower.value) : after(at(plan.lower.value))) : typeStart[type]();
  const upper = plan.upper ? (plan.upper.inclusive ? after(at(plan.upper.value)) : at(plan.upper.value)) : typeEnd[type]();
  return { lower, upper };
}

export function encodeCursor(key: Buffer): string {
  return key.toString('base64url');
}

/** A cursor is the last key a page returned; it must lie under the query's prefix. */
export function decodeCursor(cursor: string, prefix: KeyPart[]): Buffer | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) return undefined;
  const key = Buffer.from(cursor, 'base64url');
  const { lower } = prefixSpan(prefix);
  if (key.length <= lower.length || key.length > MAX_KEY_BYTES) return undefined;
  return key.subarray(0, lower.length).equals(lower) ? key : undefined;
}
