import { CellTable } from './cell-table.js';
import { seededRandom } from '../../../../test/support/seeded-random.js';

describe('CellTable', () => {
  it('behaves like a Map under random inserts, overwrites and deletes, through growing and shrinking', () => {
    const next = seededRandom(11);
    const table = new CellTable<number>();
    const model = new Map<string, number>();
    // A small key space makes collisions, overwrites and deletes of present keys frequent.
    const keys = Array.from({ length: 3000 }, () => [Math.floor(next() * 2 ** 24), Math.floor(next() * 2 ** 32)] as const);
    for (let step = 0; step < 60_000; step++) {
      const [hi, lo] = keys[Math.floor(next() * (step < 30_000 ? keys.length : keys.length / 3))];
      const id = `${hi}:${lo}`;
      if (next() < (step < 30_000 ? 0.7 : 0.2)) {
        table.set(hi, lo, step);
        model.set(id, step);
      } else {
        expect(table.delete(hi, lo)).toBe(model.delete(id));
      }
      if (step % 997 === 0) {
        expect(table.size).toBe(model.size);
        for (const [h, l] of keys) expect(table.get(h, l)).toBe(model.get(`${h}:${l}`));
      }
    }
    for (const [hi, lo] of keys) {
      table.delete(hi, lo);
      model.delete(`${hi}:${lo}`);
    }
    expect(table.size).toBe(0);
    expect(table.get(keys[0][0], keys[0][1])).toBeUndefined();
  });

  it('tells apart keys that differ only in the high half', () => {
    const table = new CellTable<string>();
    table.set(1, 42, 'a');
    table.set(2, 42, 'b');
    expect([table.get(1, 42), table.get(2, 42), table.get(3, 42)]).toEqual(['a', 'b', undefined]);
  });
});
