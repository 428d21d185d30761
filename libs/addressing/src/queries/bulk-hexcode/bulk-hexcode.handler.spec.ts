import type { PointNamer } from '../../domain/bulk.js';
import { reverseAddress, type ReverseAddress } from '../../domain/reverse-address.js';
import { ReverseNamer, UNNAMED } from '../../naming/reverse-namer.js';
import { filledGaps } from './bulk-hexcode.handler.js';

/** An answer with `count` gaps, each after `"address":`, as the bulk thread leaves them, and its points. */
function answerWithGaps(count: number): { bytes: Buffer; gaps: Int32Array; points: Float64Array } {
  let text = '{"items":[';
  const gaps: number[] = [];
  const points: number[] = [];
  for (let i = 0; i < count; i++) {
    text += `${i ? ',' : ''}{"index":${i},"address":`;
    gaps.push(Buffer.byteLength(text));
    text += '}';
    points.push(5.5 + i / 1000, -0.2 - i / 1000);
  }
  text += ']}';
  return { bytes: Buffer.from(text), gaps: Int32Array.from(gaps), points: Float64Array.from(points) };
}

const joined = (chunks: Iterable<Buffer>) => Buffer.concat([...chunks]).toString('utf8');

describe('a bulk answer named into its gaps', () => {
  it('writes each point its own name, across chunks, with multi-byte text', () => {
    const { bytes, gaps, points } = answerWithGaps(150);
    const name: PointNamer = (lat, lng) => ({ ...reverseAddress(null, null), formatted: `près de ${lat.toFixed(3)},${lng.toFixed(3)}` });
    const items = (JSON.parse(joined(filledGaps(bytes, gaps, points, name))) as { items: Array<{ index: number; address: ReverseAddress }> }).items;
    expect(items).toHaveLength(150);
    expect(items[0].address.formatted).toBe('près de 5.500,-0.200');
    expect(items[149].address.formatted).toBe('près de 5.649,-0.349');
    expect(items.map((item) => item.index)).toEqual(Array.from({ length: 150 }, (_, i) => i));
  });

  it('serialises a name once while the namer answers the same object, and again when it changes', () => {
    const { bytes, gaps, points } = answerWithGaps(200);
    let serialised = 0;
    const shared = { formatted: 'shared', toJSON: () => (serialised++, { formatted: 'shared' }) } as unknown as ReverseAddress;
    const other = { formatted: 'other', toJSON: () => (serialised++, { formatted: 'other' }) } as unknown as ReverseAddress;
    // Points 0–99 and 150–199 the shared object, 100–149 another: three runs, three serialisations.
    const name: PointNamer = (lat) => (lat >= 5.6 && lat < 5.65 - 1e-9 ? other : shared);
    const items = (JSON.parse(joined(filledGaps(bytes, gaps, points, name))) as { items: Array<{ address: { formatted: string } }> }).items;
    expect(items.map((item) => item.address.formatted)).toEqual([...Array(100).fill('shared'), ...Array(50).fill('other'), ...Array(50).fill('shared')]);
    expect(serialised).toBe(3);
  });
});

describe('the reverse namer', () => {
  const noPlaces = { namesAt: () => null };
  it('answers the one frozen UNNAMED where nothing loaded names the point, the same text as reverseAddress', () => {
    const namer = new ReverseNamer(noPlaces, { nearestNamedRoad: () => null });
    expect(namer.name(5.6, -0.2)).toBe(UNNAMED);
    expect(namer.name(7.1, -1.6)).toBe(UNNAMED);
    expect(Object.isFrozen(UNNAMED) && Object.isFrozen(UNNAMED.datasets)).toBe(true);
    expect(JSON.stringify(UNNAMED)).toBe(JSON.stringify(reverseAddress(null, null)));
  });

  it('names the point itself once a road is near, even with no places loaded', () => {
    const road = { name: 'Ring Road', ref: null, dataset: 'roads', distance_m: 40, version: { dataset: 'roads', version: 'v1', imported_at: '2026-01-01T00:00:00Z' } };
    const address = new ReverseNamer(noPlaces, { nearestNamedRoad: () => road }).name(5.6, -0.2);
    expect(address).not.toBe(UNNAMED);
    expect(address?.road?.name).toBe('Ring Road');
  });
});
