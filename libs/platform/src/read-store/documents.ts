/**
 * Rules every adapter applies to names, ids and documents, so that a
 * projection that works on the embedded store also works on MongoDB (and the
 * other way round). Shared by both adapters; not part of the public API.
 */
import { InvalidParamError } from '../errors.js';
import { InvalidDocumentError } from './errors.js';
import type { Doc, IndexSpec, Scalar } from './read-store.port.js';

/**
 * Fields the MongoDB adapter keeps beside a document's own fields (`_id` holds
 * the id). Refused everywhere so that no projection starts to depend on them.
 */
export const RESERVED_FIELDS: readonly string[] = ['_id', '_position', '_deleted'];

/**
 * Collection and index names become MongoDB collection names and LMDB key
 * parts; a leading `_` is kept for the store's own collections (`_checkpoints`).
 */
const NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,99}$/;
/** Indexed fields are top-level (port): no dots, no `$`, nothing reserved. */
const FIELD = /^[A-Za-z][A-Za-z0-9_]{0,99}$/;
/** LMDB keys top out near 2 KB; ids share a key with the collection name and index values. */
const MAX_ID_LENGTH = 512;

export function checkCollectionName(name: string): void {
  if (typeof name !== 'string' || !NAME.test(name)) {
    throw new InvalidParamError(`invalid read-model collection name "${name}"`, 'collection');
  }
}

export function checkCheckpointName(name: string): void {
  if (typeof name !== 'string' || name.length === 0 || name.length > MAX_ID_LENGTH || name.includes('\0')) {
    throw new InvalidParamError(`invalid checkpoint name "${name}"`, 'checkpoint');
  }
}

/** Answers a defensive copy of the specs once they are known to be usable. */
export function checkIndexSpecs(collection: string, specs: readonly IndexSpec[]): IndexSpec[] {
  const names = new Set<string>();
  const shapes = new Set<string>();
  return specs.map((spec) => {
    if (!NAME.test(spec.name)) {
      throw new InvalidParamError(`${collection}: invalid index name "${spec.name}"`, 'index');
    }
    if (names.has(spec.name)) throw new InvalidParamError(`${collection}: index "${spec.name}" declared twice`, 'index');
    names.add(spec.name);
    if (spec.fields.length === 0) throw new InvalidParamError(`${collection}: index "${spec.name}" has no fields`, 'index');
    for (const field of spec.fields) {
      // `id` is the key already (use get); as an index field it would also
      // collide with the `_id` tie-breaker MongoDB appends to every index.
      if (!FIELD.test(field) || field === 'id') {
        throw new InvalidParamError(`${collection}: index "${spec.name}" cannot use field "${field}"`, 'index');
      }
    }
    if (new Set(spec.fields).size !== spec.fields.length) {
      throw new InvalidParamError(`${collection}: index "${spec.name}" repeats a field`, 'index');
    }
    // MongoDB refuses two indexes with the same keys under different names.
    const shape = spec.fields.join('\n');
    if (shapes.has(shape)) throw new InvalidParamError(`${collection}: two indexes on ${spec.fields.join(', ')}`, 'index');
    shapes.add(shape);
    return { name: spec.name, fields: [...spec.fields] };
  });
}

export function sameIndex(a: IndexSpec, b: IndexSpec): boolean {
  return a.name === b.name && a.fields.length === b.fields.length && a.fields.every((f, i) => f === b.fields[i]);
}

export function checkId(collection: string, id: string): void {
  // LMDB's ordered-binary keys use NUL as the separator between key parts.
  if (typeof id !== 'string' || id.length === 0 || id.length > MAX_ID_LENGTH || id.includes('\0')) {
    throw new InvalidParamError(`${collection}: invalid document id "${String(id)}"`, 'id');
  }
}

export function checkPosition(position: bigint): void {
  if (typeof position !== 'bigint') throw new InvalidParamError('position must be a bigint', 'position');
}

/** What `evolve` answered must still be the document it was asked about. */
export function checkEvolved(collection: string, id: string, next: unknown): asserts next is Doc | null {
  if (next === null) return;
  if (typeof next !== 'object' || Array.isArray(next)) {
    throw new InvalidDocumentError(collection, id, 'evolve must answer a document or null');
  }
  if ((next as Doc).id !== id) {
    throw new InvalidDocumentError(collection, id, `evolve changed the id to "${String((next as Doc).id)}"`);
  }
  for (const field of RESERVED_FIELDS) {
    if (field in next) throw new InvalidDocumentError(collection, id, `field "${field}" is reserved`);
  }
}

/**
 * The value a document contributes to an index. A missing field indexes as
 * null (as MongoDB does). Only scalars are indexable: MongoDB would silently
 * turn an array into a multikey index and an object into a whole-value
 * comparison, and LMDB cannot key either, so both adapters refuse them.
 */
export function indexValue(collection: string, doc: Doc, field: string): Scalar {
  const value = doc[field];
  if (value === undefined || value === null) return null;
  if (typeof value === 'string') {
    if (value.includes('\0')) throw new InvalidDocumentError(collection, doc.id, `indexed field "${field}" contains NUL`);
    return value;
  }
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return normaliseNumber(value);
  throw new InvalidDocumentError(
    collection,
    doc.id,
    `indexed field "${field}" must be a string, finite number, boolean or null (store times as ISO strings)`,
  );
}

/** -0 and 0 are equal everywhere but in their bits; the embedded keys compare bits. */
export function normaliseNumber(value: number): number {
  return value === 0 ? 0 : value;
}
