/**
 * Turns a port `Query` into a checked plan both adapters execute the same way:
 * an equality prefix of a declared index, an optional range on the next
 * field, a direction and a capped limit.
 */
import { normaliseNumber } from './documents.js';
import { InvalidQueryError, UnknownIndexError } from './errors.js';
import type { IndexSpec, Query, Range, Scalar } from './read-store.port.js';

export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 1000;

export type ScalarType = 'null' | 'number' | 'string' | 'boolean';

/**
 * How values of different types sort in one index field, in both adapters:
 * MongoDB's BSON order restricted to the scalars the read store accepts.
 */
export const TYPE_ORDER: readonly ScalarType[] = ['null', 'number', 'string', 'boolean'];

export function scalarType(value: Scalar): ScalarType {
  if (value === null) return 'null';
  return typeof value as 'number' | 'string' | 'boolean';
}

export interface Bound {
  value: string | number | boolean;
  inclusive: boolean;
}

export interface QueryPlan {
  index: IndexSpec;
  equals: Scalar[];
  /** Present when the query has a range: the field after the equality prefix. */
  rangeField?: string;
  lower?: Bound;
  upper?: Bound;
  direction: 'asc' | 'desc';
  limit: number;
  cursor?: string;
}

export function planQuery(collection: string, indexes: readonly IndexSpec[], query: Query): QueryPlan {
  const index = indexes.find((spec) => spec.name === query.index);
  if (!index) throw new UnknownIndexError(collection, query.index);

  const equals = (query.equals ?? []).map((value) => checkScalar(value, 'equals'));
  if (equals.length > index.fields.length) {
    throw new InvalidQueryError(
      `index "${index.name}" has ${index.fields.length} field(s), the query gives ${equals.length} equality values`,
      'equals',
    );
  }

  const plan: QueryPlan = {
    index,
    equals,
    direction: checkDirection(query.direction),
    limit: checkLimit(query.limit),
    cursor: query.cursor ?? undefined,
  };

  const range = query.range ?? {};
  if (Object.values(range).some((bound) => bound !== undefined)) {
    if (equals.length === index.fields.length) {
      throw new InvalidQueryError(`index "${index.name}" has no field left for a range after ${equals.length} equality values`, 'range');
    }
    plan.rangeField = index.fields[equals.length];
    Object.assign(plan, checkRange(range));
  }
  return plan;
}

function checkScalar(value: Scalar, field: string): Scalar {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return normaliseNumber(value);
  throw new InvalidQueryError(`${field} values must be strings, finite numbers, booleans or null`, field);
}

function checkDirection(direction: Query['direction']): 'asc' | 'desc' {
  if (direction === undefined || direction === 'asc' || direction === 'desc') return direction ?? 'asc';
  throw new InvalidQueryError(`direction must be asc or desc`, 'direction');
}

function checkLimit(limit: number | undefined): number {
  if (limit === undefined) return DEFAULT_LIMIT;
  if (!Number.isInteger(limit) || limit < 1) throw new InvalidQueryError('limit must be a positive integer', 'limit');
  return Math.min(limit, MAX_LIMIT);
}

/**
 * A range compares within one type (as MongoDB does: `{$gt: 5}` never matches
 * a string). Bounds of two types, or null bounds, are almost surely a bug in
 * the caller, so they are refused instead of answering an empty page.
 */
function checkRange(range: Range): { lower?: Bound; upper?: Bound } {
  if (range.gt !== undefined && range.gte !== undefined) throw new InvalidQueryError('range has both gt and gte', 'range');
  if (range.lt !== undefined && range.lte !== undefined) throw new InvalidQueryError('range has both lt and lte', 'range');
  const bound = (value: Scalar | undefined, inclusive: boolean): Bound | undefined => {
    if (value === undefined) return undefined;
    const checked = checkScalar(value, 'range');
    if (checked === null) throw new InvalidQueryError('range bounds cannot be null', 'range');
    return { value: checked, inclusive };
  };
  const lower = bound(range.gt, false) ?? bound(range.gte, true);
  const upper = bound(range.lt, false) ?? bound(range.lte, true);
  if (lower && upper && typeof lower.value !== typeof upper.value) {
    throw new InvalidQueryError('range bounds must have the same type', 'range');
  }
  return { lower, upper };
}
