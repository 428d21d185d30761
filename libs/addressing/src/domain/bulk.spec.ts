import { cellToLatLng, latLngToCell } from 'h3-js';
import { bulkAnswerChunks, bulkAnswerPieces, CHUNK_ITEMS, codeBulkItem, type PointNamer } from './bulk.js';
import { hexCodeForPoint, hexCodeFromCell } from './hexcode.js';
import { DECODED_CODE_CONFIDENCE, HEXCODE_SCHEME_SINCE } from './provenance.js';

const accra = hexCodeForPoint(5.6037, -0.187);

describe('bulk hex coding', () => {
  it('codes a point at the default or its own resolution, echoing the id', () => {
    expect(codeBulkItem({ lat: 5.6037, lng: -0.187, id: 'a' }, 0, 13)).toEqual({ index: 0, id: 'a', code: accra, display: '6Q3-HQK-Q4ZA', resolution: 13 });
    expect(codeBulkItem({ lat: 5.6037, lng: -0.187, resolution: 7 }, 3, 13)).toMatchObject({ index: 3, resolution: 7, code: hexCodeFromCell(latLngToCell(5.6037, -0.187, 7)) });
  });

  it('decodes a code given bare or as {code}, to the cell centre', () => {
    const [lat, lng] = cellToLatLng(latLngToCell(5.6037, -0.187, 13));
    for (const item of ['6q3-hqk-q4za', { code: accra }]) {
      expect(codeBulkItem(item, 1, 13)).toEqual({ index: 1, code: accra, display: '6Q3-HQK-Q4ZA', resolution: 13, lat, lng, accuracy_meters: expect.any(Number) });
    }
  });

  it.each([
    [{ lat: 91, lng: 0 }, 'INVALID_PARAM', 'items[2].lat'],
    [{ lat: 0 }, 'INVALID_PARAM', 'items[2].lng'],
    [{ lat: 0, lng: 0, resolution: 16 }, 'INVALID_PARAM', 'items[2].resolution'],
    [{ lat: 0, lng: 0, colour: 'red' }, 'INVALID_PARAM', 'items[2].colour'],
    [{ code: accra, lat: 0, lng: 0 }, 'INVALID_PARAM', 'items[2]'],
    [{ code: 17 }, 'INVALID_CODE', 'items[2].code'],
    [{ code: 'ZZZ' }, 'INVALID_CODE', 'items[2].code'],
    ['not a code', 'INVALID_CODE', 'items[2]'],
    [null, 'INVALID_PARAM', 'items[2]'],
    [[1, 2], 'INVALID_PARAM', 'items[2]'],
    [{ lat: 0, lng: 0, id: { nested: true } }, 'INVALID_PARAM', 'items[2].id'],
  ])('fails %j alone (%s at %s)', (item, code, field) => {
    expect(codeBulkItem(item, 2, 13)).toMatchObject({ index: 2, error: { code, field } });
  });

  it('streams the envelope in chunks as it computes, and the whole is valid JSON', () => {
    const items = Array.from({ length: CHUNK_ITEMS * 2 + 5 }, (_, i) => (i % 2 ? { lat: i / 100, lng: i / 50 } : accra));
    items.push({ code: 'bad!' } as never);
    const generator = bulkAnswerChunks(items, 13);
    const first = generator.next();
    // Only the first chunk has been computed: the rest is computed when read.
    expect(first.done).toBe(false);
    expect(first.value.startsWith('{"success":true,"data":{"items":[')).toBe(true);
    const rest = [...generator];
    expect(rest).toHaveLength(2);
    const answer = JSON.parse(first.value + rest.join(''));
    expect(answer.data.count).toBe(items.length);
    expect(answer.data.failed).toBe(1);
    expect(answer.data.items).toHaveLength(items.length);
    expect(answer.data.provenance).toMatchObject({ source: 'geocoded_text', confidence: DECODED_CODE_CONFIDENCE, verified_at: HEXCODE_SCHEME_SINCE });
    expect(answer.data.provenance.accuracy_meters).toBe(Math.max(...answer.data.items.filter((i: { lat?: number }) => i.lat !== undefined).map((i: { accuracy_meters: number }) => i.accuracy_meters)));
  });

  it('leaves each coded point an address gap that, filled, gives the named answer byte for byte', () => {
    const items: unknown[] = Array.from({ length: CHUNK_ITEMS + 7 }, (_, i) => (i % 3 === 0 ? { lat: 5 + i / 1000, lng: -0.2, id: `é-${i}` } : i % 3 === 1 ? accra : { lat: 'x', lng: 0 }));
    items.push({ lat: 91, lng: 0 }, { lat: 5.6, lng: -0.18, resolution: 99 });
    const name: PointNamer = (lat, lng) => (lat > 5.1 ? null : { region: 'Greater Accra', district: null, locality: `near ${lat},${lng}`, landmark: null, road: null } as never);
    const filled = [...bulkAnswerPieces(items, 13, true)].flat().map((piece) => (typeof piece === 'string' ? piece : JSON.stringify(name(piece.lat, piece.lng))));
    expect(filled.join('')).toBe([...bulkAnswerChunks(items, 13, name)].join(''));
    const gaps = [...bulkAnswerPieces(items, 13, true)].flat().filter((piece) => typeof piece !== 'string');
    expect(gaps).toHaveLength(Math.ceil((CHUNK_ITEMS + 7) / 3));
    // Without naming there is no gap, and the text is the unnamed answer.
    expect([...bulkAnswerPieces(items, 13, false)].flat().join('')).toBe([...bulkAnswerChunks(items, 13)].join(''));
  });

  it('writes every item as JSON.stringify writes what codeBulkItem answers, point items written directly or not (issue 49)', () => {
    const items: unknown[] = [
      { lat: 5.6037, lng: -0.187 },
      { id: 'shop-1', lat: 5.6037, lng: -0.187, resolution: 7 },
      { lat: -0, lng: 0, resolution: -0, id: -0 },
      { lat: 89.9, lng: -179.9, id: 'ü "quoted" \\ ✓' },
      { lat: 5.6, lng: -0.18, id: 1.5e300 },
      { lat: 5.6, lng: -0.18, id: null },
      { lat: 5.6, lng: -0.18, id: 'x'.repeat(129) },
      { lat: 5.6, lng: -0.18, resolution: null },
      { lat: 5.6, lng: -0.18, resolution: 15.5 },
      { lat: 90.1, lng: 0 },
      { lat: 5.6, lng: -0.18, colour: 'red' },
      { lat: 5.6, lng: -0.18, hexcode: accra },
      Object.assign(Object.create({ inherited: 1 }), { lat: 5.6, lng: -0.18 }),
      { code: accra, id: 3 },
      accra,
      [5.6, -0.18],
    ];
    const expected = items.map((item, index) => JSON.stringify(codeBulkItem(item, index, 13)));
    const answer = [...bulkAnswerChunks(items, 13)].join('');
    const written = (JSON.parse(answer) as { data: { items: unknown[] } }).data.items.map((item) => JSON.stringify(item));
    expect(written).toEqual(expected);
    expect(answer).toContain(`{"index":0,"code":"${accra}","display":"6Q3-HQK-Q4ZA","resolution":13}`);
    expect(answer).toContain(expected.join(','));
  });

  it('has no provenance when no item returned a point', () => {
    const answer = JSON.parse([...bulkAnswerChunks([{ lat: 1, lng: 1 }], 13)].join(''));
    expect(answer.data.provenance).toBeNull();
  });
});
