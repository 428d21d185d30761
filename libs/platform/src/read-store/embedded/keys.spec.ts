import { describe, expect, it } from '@jest/globals';
import { planQuery, scalarType, TYPE_ORDER } from '../query-plan.js';
import type { Range, Scalar } from '../read-store.port.js';
import { decodeCursor, docKey, docKeyForLookup, encodeCursor, indexKey, indexPrefix, planSpan } from './keys.js';

/** MongoDB's order for the scalars the read store accepts: type first, then value. */
function reference(a: Scalar, b: Scalar): number {
  const byType = TYPE_ORDER.indexOf(scalarType(a)) - TYPE_ORDER.indexOf(scalarType(b));
  if (byType !== 0) return byType;
  if (typeof a === 'string' && typeof b === 'string') return Buffer.compare(Buffer.from(a), Buffer.from(b));
  return a === b ? 0 : (a as number) < (b as number) ? -1 : 1;
}

const VALUES: Scalar[] = [
  null,
  -1e300,
  -1000.5,
  -1,
  -0.001,
  0,
  1e-9,
  0.5,
  1,
  2,
  10,
  100,
  2 ** 53,
  1e300,
  '',
  ' ',
  '0',
  '10',
  '2',
  '2024-03-01T10:00:00.000Z',
  '2024-03-01T10:00:00.001Z',
  '2024-03-01T10:00:00Z',
  'A',
  'a',
  'ab',
  'abc',
  'b',
  'z'.repeat(63),
  'z'.repeat(64),
  'z'.repeat(63) + '{',
  'é',
  'ü',
  '中',
  '😀',
  false,
  true,
];

const INDEX = { name: 'by_v', fields: ['v'] };
const key = (value: Scalar, id = 'id') => indexKey('things', INDEX.name, [value], id);

describe('embedded index keys', () => {
  it('sort like MongoDB: null, numbers, strings by UTF-8 bytes, booleans', () => {
    for (const a of VALUES) {
      for (const b of VALUES) {
        expect([a, b, Math.sign(Buffer.compare(key(a), key(b)))]).toEqual([a, b, Math.sign(reference(a, b))]);
      }
    }
  });

  it('break ties between equal values by id', () => {
    expect(Buffer.compare(key('x', 'a'), key('x', 'b'))).toBe(-1);
    expect(Buffer.compare(key('x', 'b'), key('xa', 'a'))).toBe(-1);
    expect(Buffer.compare(key(1, 'b'), key(1, 'ba'))).toBe(-1);
  });

  it('cover exactly the values a range admits, within the bound type', () => {
    const bounds: Scalar[] = [-1, 0, 0.75, 10, '', '2', '2024-03-01T10', 'ab', 'é', false, true];
    const ranges: Range[] = bounds.flatMap((bound) => [{ gt: bound }, { gte: bound }, { lt: bound }, { lte: bound }]);
    for (const bound of bounds) {
      for (const other of bounds) if (typeof other === typeof bound) ranges.push({ gte: bound, lt: other }, { gt: bound, lte: other });
    }
    for (const range of ranges) {
      const plan = planQuery('things', [INDEX], { index: INDEX.name, range });
      const { lower, upper } = planSpan('things', plan);
      const type = scalarType((range.gt ?? range.gte ?? range.lt ?? range.lte)!);
      for (const value of VALUES) {
        const admitted =
          scalarType(value) === type &&
          (range.gt === undefined || reference(value, range.gt) > 0) &&
          (range.gte === undefined || reference(value, range.gte) >= 0) &&
          (range.lt === undefined || reference(value, range.lt) < 0) &&
          (range.lte === undefined || reference(value, range.lte) <= 0);
        const k = key(value);
        const inside = Buffer.compare(k, lower) >= 0 && Buffer.compare(k, upper) < 0;
        expect([range, value, inside]).toEqual([range, value, admitted]);
      }
    }
  });

  it('keep an equality prefix apart from values that merely start with it', () => {
    const plan = planQuery('things', [{ name: 'by_s_v', fields: ['s', 'v'] }], { index: 'by_s_v', equals: ['ab'] });
    const { lower, upper } = planSpan('things', plan);
    const inside = (s: string) => {
      const k = indexKey('things', 'by_s_v', [s, 1], 'id');
      return Buffer.compare(k, lower) >= 0 && Buffer.compare(k, upper) < 0;
    };
    expect([inside('ab'), inside('a'), inside('abc'), inside('ab ')]).toEqual([true, false, false, false]);
  });

  it('take back only cursors under the same prefix', () => {
    const cursor = encodeCursor(indexKey('things', 'by_s_v', ['ab', 1], 'id'));
    expect(decodeCursor(cursor, indexPrefix('things', 'by_s_v', ['ab']))).toBeDefined();
    expect(decodeCursor(cursor, indexPrefix('things', 'by_s_v', []))).toBeDefined();
    expect(decodeCursor(cursor, indexPrefix('things', 'by_s_v', ['a']))).toBeUndefined();
    expect(decodeCursor(cursor, indexPrefix('things', 'by_v', []))).toBeUndefined();
    expect(decodeCursor(cursor, indexPrefix('thing', 'by_s_v', []))).toBeUndefined();
    expect(decodeCursor('%%%', indexPrefix('things', 'by_s_v', []))).toBeUndefined();
  });

  it('write a lookup key byte for byte as the stored document key, whatever the id holds', () => {
    const ids = ['acct_1:l1', 'a', '~', ' leading space', 'x'.repeat(300), '\u0001ctl', 'in\u0003side', 'tab\there', 'Ghana ₵', 'é', '😀', 'del\u007f', '\u001bescape', ':', '0', 'Z'.repeat(63), 'Z'.repeat(64)];
    for (const collection of ['collection_loans_v2', 'things']) {
      for (const id of ids) expect(Buffer.from(docKeyForLookup(collection, id))).toEqual(docKey(collection, id));
    }
  });
});
