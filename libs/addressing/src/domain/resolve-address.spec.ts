import { cellToLatLng, gridDisk, gridRingUnsafe, latLngToCell } from 'h3-js';
import { InvalidParamError } from '../../../platform/src/errors.js';
import { hexCodeFromCell, InvalidCodeError } from './hexcode.js';
import {
  AddressNotConvertibleError,
  AddressNotFoundError,
  classifyAddress,
  isStructure,
  MAX_STRUCTURE_POINTS,
  nominalAccuracy,
  resolveCode,
  resolveText,
  structureRadius,
  type AddressInput,
  type DatasetRef,
  type NearbyReference,
  type ReferencePlace,
  type TextCandidate,
} from './resolve-address.js';

const osm: DatasetRef = { dataset: 'places/osm', version: 'v20261101T000000Z-abc', imported_at: '2026-11-01T00:00:00.000Z', attribution: ['© OpenStreetMap contributors'] };
const geonames: DatasetRef = { dataset: 'places/geonames', version: 'v20261102T000000Z-def', imported_at: '2026-11-02T00:00:00.000Z', attribution: ['GeoNames (geonames.org), CC BY 4.0'] };

function place(id: string, name: string, feature: string, lat: number, lng: number, kind = feature.split(/[=.]/)[1]): ReferencePlace {
  return { id, name, kind, feature, source: id.split(':')[0], lat, lng, region: 'Greater Accra', district: null };
}

const cell = latLngToCell(5.6037, -0.187, 13);
const code = hexCodeFromCell(cell);
const [centreLat, centreLng] = cellToLatLng(cell);
const [neighbour, otherNeighbour] = gridDisk(cell, 1).filter((other) => other !== cell);
const twoAway = gridRingUnsafe(cell, 2)[0];
const at = (target: string, id: string, name: string, feature: string, dataset: DatasetRef | null = osm): NearbyReference => {
  const [lat, lng] = cellToLatLng(target);
  return { place: place(id, name, feature, lat, lng), distance_m: Math.round(Math.hypot(lat - centreLat, lng - centreLng) * 111_000), dataset };
};
const codeInput = (text: string) => classifyAddress(text) as Extract<AddressInput, { kind: 'hex_code' }>;

/** The instant answers are computed at: a decoded cell centre is verified then. */
const NOW = new Date('2026-11-23T12:00:00.000Z');

describe('classifyAddress', () => {
  it.each([code, code.toLowerCase(), `${code.slice(0, 3)}-${code.slice(3, 6)}-${code.slice(6)}`, `${code.slice(0, 3)} ${code.slice(3, 6)} ${code.slice(6)}`])('takes %j for the code', (text) => {
    expect(classifyAddress(text)).toMatchObject({ kind: 'hex_code', parsed: { code, cell, resolution: 13 }, embedded: false });
  });

  it('finds a code inside other text, and keeps the codes after it', () => {
    const second = hexCodeFromCell(neighbour);
    expect(classifyAddress(`deliver to ${code.toLowerCase()}, blue gate, or ${second}`)).toMatchObject({ kind: 'hex_code', parsed: { code }, embedded: true, other_codes: [second] });
    // A hex code beside a GhanaPostGPS address: the one that converts wins.
    expect(classifyAddress(`GA-123-4567 / ${code}`)).toMatchObject({ kind: 'hex_code', parsed: { code } });
  });

  it('refuses a GhanaPostGPS address with 422 ADDRESS_NOT_CONVERTIBLE, naming it in details', () => {
    for (const text of ['GA-123-4567', 'house at ga1234567, Osu']) {
      const error = catchError(() => classifyAddress(text));
      expect(error).toBeInstanceOf(AddressNotConvertibleError);
      expect(error).toMatchObject({ status: 422, code: 'ADDRESS_NOT_CONVERTIBLE', field: 'address', details: { kind: 'ghanapost_gps', code: 'GA-123-4567' } });
    }
  });

  it('refuses a mistyped code with INVALID_CODE, its reason and the likely codes in details', () => {
    const typo = `${code.slice(0, -1)}${code.endsWith('0') ? '1' : '0'}`;
    const error = catchError(() => classifyAddress(typo));
    expect(error).toBeInstanceOf(InvalidCodeError);
    expect(error).toMatchObject({ status: 400, field: 'address', details: { reason: 'check_failed' } });
    expect((error as InvalidCodeError).details.suggestions).toContain(code);
  });

  it('takes words for text, and a letters-only word that is also a valid code for either', () => {
    expect(classifyAddress('  Korle Bu Teaching Hospital ')).toEqual({ kind: 'text', text: 'Korle Bu Teaching Hospital' });
    expect(classifyAddress('Kumasi')).toEqual({ kind: 'text', text: 'Kumasi' });
    const lettersOnly = codeWithoutDigits();
    expect(classifyAddress(lettersOnly.toLowerCase())).toMatchObject({ kind: 'text_or_code', text: lettersOnly.toLowerCase(), parsed: { code: lettersOnly } });
  });

  it.each([[''], ['   '], ['!!! ???'], ['x'.repeat(201)]])('refuses %j with INVALID_PARAM naming address', (text) => {
    const error = catchError(() => classifyAddress(text));
    expect(error).toBeInstanceOf(InvalidParamError);
    expect(error).toMatchObject({ status: 400, field: 'address' });
  });
});

describe('resolveCode', () => {
  it('names the structure in the cell, lists the ones next to it after, and leaves out the rest', () => {
    const nearby = [
      at(neighbour, 'osm:node/2', 'Next Door Pharmacy', 'amenity=pharmacy'),
      at(cell, 'osm:node/1', 'Blue Kiosk', 'shop=kiosk'),
      at(cell, 'osm:node/3', 'Osu', 'place=suburb'),
      at(twoAway, 'osm:node/4', 'Too Far Chapel', 'amenity=place_of_worship'),
      at(otherNeighbour, 'geonames:77', 'Old Fort', 'S.FT', geonames),
    ];
    const answer = resolveCode(codeInput(code), nearby, [osm, geonames], NOW);
    expect(answer).toMatchObject({ code, cell, resolution: 13, lat: centreLat, lng: centreLng, precision: 'structure', label: 'Blue Kiosk', last_seen_at: osm.imported_at });
    expect(answer.provenance).toMatchObject({ source: 'geocoded_text', confidence: 0.5, verified_at: '2026-11-22T00:00:00.000Z' });
    expect(answer.points.map((point) => [point.label, point.in_cell])).toEqual([
      ['Blue Kiosk', true],
      ...[['Next Door Pharmacy', false], ['Old Fort', false]].sort((a, b) => distanceOf(nearby, a[0] as string) - distanceOf(nearby, b[0] as string)),
    ]);
    expect(answer.points[0]).toMatchObject({ place_id: 'osm:node/1', kind: 'kiosk', code, last_seen_at: osm.imported_at, provenance: { source: 'third_party_match', accuracy_meters: 10, verified_at: osm.imported_at } });
    expect(answer.points.find((point) => point.label === 'Old Fort')).toMatchObject({ last_seen_at: geonames.imported_at, provenance: { provider: `GeoNames (places/geonames@${geonames.version})` } });
    expect(answer.meta).toMatchObject({
      input_kind: 'hex_code',
      matched_by: 'code',
      candidates_considered: 5,
      structure_search: { radius_m: structureRadius(cell) },
      structure_search_skipped: null,
      attribution: ['GeoNames (geonames.org), CC BY 4.0', '© OpenStreetMap contributors'],
      last_seen_basis: 'dataset_import',
    });
    expect(answer.meta.datasets).toEqual([osm, geonames].map(({ dataset, version, imported_at }) => ({ dataset, version, imported_at })));
  });

  it('has cell precision, and no label nor last_seen_at, when no structure stands there', () => {
    const answer = resolveCode(codeInput(code), [at(cell, 'osm:node/3', 'Osu', 'place=suburb'), at(twoAway, 'osm:node/4', 'Too Far Chapel', 'amenity=place_of_worship')], [osm], NOW);
    expect(answer).toMatchObject({ precision: 'cell', label: null, last_seen_at: null, points: [] });
    expect(answer.meta.attribution).toEqual([]);
  });

  it('says why it did not look for structures: a coarse code, or no dataset', () => {
    const coarse = hexCodeFromCell(latLngToCell(5.6037, -0.187, 9));
    expect(resolveCode(codeInput(coarse), null, [osm], NOW).meta).toMatchObject({ structure_search: null, structure_search_skipped: 'resolution_too_coarse', datasets: [] });
    expect(resolveCode(codeInput(code), null, [], NOW).meta).toMatchObject({ structure_search: null, structure_search_skipped: 'dataset_not_loaded' });
  });

  it(`returns at most ${MAX_STRUCTURE_POINTS} points`, () => {
    const many = Array.from({ length: 25 }, (_, i) => at(i % 2 ? cell : neighbour, `osm:node/${100 + i}`, `Shop ${i}`, 'shop=yes'));
    const answer = resolveCode(codeInput(code), many, [osm], NOW);
    expect(answer.points).toHaveLength(MAX_STRUCTURE_POINTS);
    expect(answer.points.every((point) => point.in_cell)).toBe(true);
  });

  it('marks a code found in text', () => {
    expect(resolveCode(codeInput(`at ${code} please`), [], [osm], NOW).meta).toMatchObject({ matched_by: 'code_in_text', matched_text: code });
  });
});

describe('resolveText', () => {
  const hit = (p: ReferencePlace, score: number, match: string, dataset: DatasetRef | null = geonames): TextCandidate => ({ place: p, score, match, matched_name: null, dataset });
  const kumasi = place('geonames:2298890', 'Kumasi', 'P.PPLA', 6.688, -1.624, 'city');
  const kumasiVillage = place('geonames:2298892', 'Kumasi', 'P.PPL', 5.46, -0.96, 'village');
  const hospital = place('osm:node/1', 'Korle Bu Teaching Hospital', 'amenity=hospital', 5.536, -0.227);

  it('resolves to the best place, with geocoded_text provenance and the dataset import as last_seen_at', () => {
    const answer = resolveText('Kumasi', [hit(kumasi, 0.95, 'exact'), hit(kumasiVillage, 0.6, 'exact')], null, [geonames], NOW);
    expect(answer).toMatchObject({ lat: 6.688, lng: -1.624, precision: 'place', label: 'Kumasi', last_seen_at: geonames.imported_at, points: [], resolution: 13 });
    expect(answer.code).toBe(hexCodeFromCell(latLngToCell(6.688, -1.624, 13)));
    expect(answer.provenance).toEqual({ source: 'geocoded_text', provider: `GeoNames (places/geonames@${geonames.version})`, accuracy_meters: 5000, confidence: 0.9, verified_at: geonames.imported_at });
    expect(answer.meta).toMatchObject({ input_kind: 'text', matched_by: 'place_search', text_match: 'exact', ambiguous: false, alternatives: [], candidates_considered: 2 });
  });

  it('lists near-equal matches as alternatives and lowers the confidence', () => {
    const answer = resolveText('Kumasi', [hit(kumasi, 0.8, 'exact'), hit(kumasiVillage, 0.75, 'exact')], null, [geonames], NOW);
    expect(answer.meta.ambiguous).toBe(true);
    expect(answer.meta.alternatives).toEqual([expect.objectContaining({ place_id: 'geonames:2298892', label: 'Kumasi', kind: 'village', score: 0.75 })]);
    expect(answer.provenance.confidence).toBeLessThan(0.9);
  });

  it('gives a structure found by name structure precision and a point', () => {
    const answer = resolveText('korle bu', [hit(hospital, 0.7, 'prefix', osm)], null, [osm], NOW);
    expect(answer).toMatchObject({ precision: 'structure', label: 'Korle Bu Teaching Hospital', last_seen_at: osm.imported_at });
    expect(answer.points).toEqual([expect.objectContaining({ label: 'Korle Bu Teaching Hospital', last_seen_at: osm.imported_at, in_cell: null, provenance: expect.objectContaining({ source: 'third_party_match' }) })]);
    expect(answer.meta.attribution).toEqual(['© OpenStreetMap contributors']);
  });

  it('keeps did_you_mean, and answers last_seen_at null when the dataset is no longer known', () => {
    const answer = resolveText('Kumsai', [hit(kumasi, 0.6, 'fuzzy', null)], 'Kumasi', [geonames], NOW);
    expect(answer).toMatchObject({ last_seen_at: null, meta: { did_you_mean: 'Kumasi', text_match: 'fuzzy' } });
    expect(answer.provenance.confidence).toBe(0.4);
  });

  it('answers 404 ADDRESS_NOT_FOUND when nothing matches', () => {
    const error = catchError(() => resolveText('Atlantis', [], null, [geonames], NOW));
    expect(error).toBeInstanceOf(AddressNotFoundError);
    expect(error).toMatchObject({ status: 404, code: 'ADDRESS_NOT_FOUND', field: 'address' });
  });
});

describe('structures and nominal accuracy', () => {
  it.each([
    ['osm:node/1', 'amenity=hospital', true],
    ['osm:way/2', 'building=yes', true],
    ['osm:node/3', 'highway=bus_stop', true],
    ['osm:node/4', 'place=village', false],
    ['osm:node/5', 'natural=peak', false],
    ['geonames:1', 'S.HSP', true],
    ['geonames:2', 'P.PPL', false],
    ['geonames:3', 'H.STM', false],
  ])('%s %s is a structure: %s', (id, feature, expected) => {
    expect(isStructure(place(id, 'x', feature, 0, 0))).toBe(expected);
  });

  it('rates a node more precise than a way, and a spot than a settlement', () => {
    expect(nominalAccuracy(place('osm:node/1', 'x', 'shop=yes', 0, 0))).toBeLessThan(nominalAccuracy(place('osm:way/1', 'x', 'shop=yes', 0, 0)));
    expect(nominalAccuracy(place('geonames:1', 'x', 'S.HSP', 0, 0))).toBeLessThan(nominalAccuracy(place('geonames:2', 'x', 'P.PPL', 0, 0, 'village')));
    expect(nominalAccuracy(place('geonames:2', 'x', 'P.PPL', 0, 0, 'village'))).toBeLessThan(nominalAccuracy(place('geonames:3', 'x', 'P.PPLA', 0, 0, 'city')));
  });

  it('a settlement’s point is as accurate as its extent, whichever dataset placed it (ADR 30)', () => {
    // An OSM place=city node is a city, not a 10 m fix.
    expect(nominalAccuracy(place('osm:node/1', 'Kumasi', 'place=city', 6.69, -1.62, 'city'))).toBe(5000);
    expect(nominalAccuracy({ ...place('osm:node/1', 'Kumasi', 'place=city', 6.69, -1.62, 'city'), population: 2_069_350 })).toBe(11_500);
    expect(nominalAccuracy(place('osm:node/2', 'Aburi', 'place=town', 5.85, -0.17, 'town'))).toBe(3000);
    expect(nominalAccuracy(place('geonames:4', 'Ashanti', 'A.ADM1', 6.7, -1.5, 'region'))).toBe(100_000);
    expect(nominalAccuracy(place('osm:node/3', 'x', 'amenity=pharmacy', 0, 0, 'pharmacy'))).toBe(10);
  });
});

function catchError(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
}

function distanceOf(nearby: NearbyReference[], name: string): number {
  return nearby.find((candidate) => candidate.place.name === name)!.distance_m;
}

/** A default-resolution code made of letters only: about one in forty, taken from all over the globe (nearby cells share their first characters). */
function codeWithoutDigits(): string {
  for (let i = 0; ; i++) {
    const candidate = hexCodeFromCell(latLngToCell(((i * 7.31) % 160) - 80, ((i * 13.7) % 360) - 180, 13));
    if (/^[A-Z]+$/.test(candidate)) return candidate;
  }
}
