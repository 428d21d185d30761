import { countLoopTurns } from '../testing/loop-turns.js';
import { jsonPieces, jsonStream } from './json-chunks.js';
import { seededRandom } from '../testing/seeded-random.js';

/** The chunked serialiser (docs/adr/0042) must write exactly what JSON.stringify writes, in bounded pieces. */
describe('jsonPieces / jsonStream', () => {
  const text = (value: unknown) => [...jsonPieces(value)].join('');

  it.each([
    ['a number', 42],
    ['a string that needs escaping', 'a "quoted"\n\u2028 \u{1F600}'],
    ['null', null],
    ['booleans in an array', [true, false]],
    ['an empty object and array', { a: {}, b: [] }],
    ['undefined, functions and symbols', { a: undefined, b: () => 1, c: Symbol('s'), d: [undefined, () => 1, Symbol('t')], e: 1 }],
    ['a first member left out', { a: undefined, b: 2 }],
    ['non-finite numbers and -0', [Number.NaN, Number.POSITIVE_INFINITY, -0, 1e21, 5e-7]],
    ['dates and toJSON', { at: new Date(Date.UTC(2026, 10, 27, 8, 30)), custom: { toJSON: () => ({ shown: true }) }, list: Array.from({ length: 100 }, (_, i) => new Date(i * 1000)) }],
    ['a sparse array', Object.assign(new Array(70), { 3: 'x', 69: 'y' })],
    ['an object without prototype', Object.assign(Object.create(null) as Record<string, unknown>, { a: [1, 2, 3], b: { c: 'd' } })],
    ['keys that look like indexes', { 2: 'two', b: 'bee', 1: 'one', 'needs "quotes"': [1] }],
    ['nested large arrays', { outer: [[Array.from({ length: 300 }, (_, i) => i)], Array.from({ length: 70 }, (_, i) => ({ i, nested: { deep: [i, i + 1] } }))] }],
  ])('writes %s as JSON.stringify does', (_name, value) => {
    expect(text(value)).toBe(JSON.stringify(value));
  });

  it('writes random answers exactly as JSON.stringify does', () => {
    const random = seededRandom(0x31);
    const leaf = (): unknown => {
      const pick = random();
      if (pick < 0.2) return Math.round(random() * 1e6) / 100;
      if (pick < 0.4) return `s${Math.floor(random() * 1e6).toString(36)}"\\`;
      if (pick < 0.5) return random() < 0.5;
      if (pick < 0.6) return null;
      if (pick < 0.65) return undefined;
      return Math.floor(random() * 100);
    };
    const build = (depth: number): unknown => {
      const pick = random();
      if (depth > 4 || pick < 0.4) return leaf();
      // Long arrays (over the 64 stringified whole) near the top only, so an answer stays a few thousand values.
      if (pick < 0.7) return Array.from({ length: Math.floor(random() * (depth < 2 && random() < 0.2 ? 600 : 10)) }, () => build(depth + 2));
      return Object.fromEntries(Array.from({ length: Math.floor(random() * 12) }, (_, i) => [`k${i}_${Math.floor(random() * 5)}`, build(depth + 1)]));
    };
    for (let round = 0; round < 100; round++) {
      const value = [build(0), { root: build(0) }];
      expect(text(value)).toBe(JSON.stringify(value));
    }
  });

  it('cuts a 10,000-row answer into pieces of a bounded size', () => {
    const answer = { success: true, data: { loans: Array.from({ length: 10_000 }, (_, i) => ({ loan_id: `loan-${i}`, score: i % 100, level: 'medium', last_seen_at: null, distance_m: i * 1.5 })), ids: Array.from({ length: 10_000 }, (_, i) => `loan-${i}`) } };
    const pieces = [...jsonPieces(answer)];
    expect(pieces.join('')).toBe(JSON.stringify(answer));
    // At most 256 rows a piece, and no more than 8 KiB of text and the row that crossed it.
    expect(Math.max(...pieces.map((piece) => piece.length))).toBeLessThan(8 * 1024 + 100);
    expect(pieces.length).toBeGreaterThan(120);
  });

  it('streams the same bytes, in chunks of about the size asked, letting the event loop in between', async () => {
    const answer = { success: true, data: { items: Array.from({ length: 5000 }, (_, i) => ({ id: `é-${i}`, n: i })) } };
    const chunks: Buffer[] = [];
    // A request waiting on the loop, as a ticker that takes its turn again and again until the answer is written.
    const loop = countLoopTurns();
    for await (const chunk of jsonStream(answer, 8 * 1024)) chunks.push(chunk as Buffer);
    const turns = loop.stop();
    expect(Buffer.concat(chunks).toString('utf8')).toBe(JSON.stringify(answer));
    expect(chunks.length).toBeGreaterThan(5);
    // Without the yields, the whole answer would be made in microtasks, between two of the ticker's turns.
    expect(turns).toBeGreaterThanOrEqual(chunks.length - 1);
  });
});
