import { sortInSlices } from './slices.js';
import { seededRandom } from '../testing/seeded-random.js';

describe('sortInSlices', () => {
  interface Item {
    score: number;
    id: string;
    at: number;
  }
  const byScore = (a: Item, b: Item) => b.score - a.score;
  const byScoreThenId = (a: Item, b: Item) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

  it.each([0, 1, 7, 999, 1000, 1001, 2500, 4096, 10_000])('orders %i items exactly as one stable sort does, ties kept in input order', async (n) => {
    const next = seededRandom(n + 1);
    // Few distinct scores: most comparisons are ties, which only a stable merge keeps in input order.
    const items: Item[] = Array.from({ length: n }, (_, at) => ({ score: Math.floor(next() * 5), id: `l${Math.floor(next() * n)}`, at }));
    const sorted = await sortInSlices(items, byScore, 100);
    expect(sorted.map((item) => item.at)).toEqual(items.slice().sort(byScore).map((item) => item.at));
    expect((await sortInSlices(items, byScoreThenId, 64)).map((item) => item.at)).toEqual(items.slice().sort(byScoreThenId).map((item) => item.at));
  });

  it('leaves its input alone and returns every element once', async () => {
    const items = Array.from({ length: 3000 }, (_, i) => (i * 7919) % 3001);
    const before = items.slice();
    const sorted = await sortInSlices(items, (a, b) => a - b, 256);
    expect(items).toEqual(before);
    expect(sorted).toEqual(before.slice().sort((a, b) => a - b));
  });

  it('lets the loop run between slices: a timer set before a long sort fires before it ends', async () => {
    const items = Array.from({ length: 20_000 }, (_, i) => (i * 7919) % 20_011);
    let fired = false;
    let firedBeforeEnd = false;
    setTimeout(() => (fired = true), 0);
    const sorting = sortInSlices(items, (a, b) => a - b, 500).then((sorted) => {
      firedBeforeEnd = fired;
      return sorted;
    });
    await sorting;
    expect(firedBeforeEnd).toBe(true);
  });
});
