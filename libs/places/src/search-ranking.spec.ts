import { readFileSync } from 'node:fs';
import { AdminAreas, boundaryFromFeature, type Boundary } from './domain/admin-areas.js';
import { placeFromGeoNames } from './domain/geonames.js';
import { placeFromOsm } from './domain/osm-tags.js';
import type { Place } from './domain/place.js';
import { SearchIndex, type SearchQuery } from './domain/search-index.js';

const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8');
const boundaries = ['boundaries-regions.geojson', 'boundaries-districts.geojson']
  .flatMap((name) => (JSON.parse(fixture(name)) as { features: unknown[] }).features.map(boundaryFromFeature))
  .filter((b): b is Boundary => b !== null);
const admin = new AdminAreas(boundaries);

const gazetteer: Place[] = [
  ...fixture('geonames-sample.txt')
    .split('\n')
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => placeFromGeoNames(line.split('\t')))
    .filter((place): place is Place => place !== null),
  placeFromOsm('node', 2, { highway: 'bus_stop', name: 'Madina Station' }, 5.6760292, -0.1712618)!,
  placeFromOsm('node', 7, { amenity: 'hospital', name: 'Korle Bu Teaching Hospital', alt_name: 'KBTH' }, 5.536, -0.227)!,
].map((place) => ({ ...place, ...admin.locate(place.lat, place.lng) }));

const index = new SearchIndex(gazetteer);
const search = (text: string, options: Partial<SearchQuery> = {}) => index.search({ text, limit: 10, offset: 0, ...options });
const ids = (text: string, options: Partial<SearchQuery> = {}) => search(text, options).hits.map((hit) => hit.place.id);

describe('SearchIndex', () => {
  it('ranks the place named exactly as asked above places whose name only contains the words', () => {
    const hits = search('Kumasi').hits;
    expect(hits[0]).toMatchObject({ match: 'exact', place: { id: 'geonames:2298890', name: 'Kumasi', kind: 'city', region: 'Ashanti', district: 'Kumasi Metropolitan' } });
    const university = hits.findIndex((hit) => hit.place.name === 'Kumasi Technical University');
    const village = hits.findIndex((hit) => hit.place.id === 'geonames:2298892');
    expect(university).toBeGreaterThan(0);
    expect(village).toBeGreaterThan(0);
    expect(hits[university].match).toBe('partial');
  });

  it('ranks by importance between equally good names: the city before the villages of the same name', () => {
    expect(ids('Madina').slice(0, 1)).toEqual(['geonames:2298330']);
    expect(ids('Kumasi')[0]).toBe('geonames:2298890');
  });

  it('lets near reorder places of the same name', () => {
    expect(ids('Kumasi', { near: { lat: 5.46, lng: -0.96 } })[0]).toBe('geonames:2298892');
    expect(ids('Kumasi', { near: { lat: 6.27, lng: 0.56 } })[0]).toBe('geonames:2298891');
    expect(ids('Madina', { near: { lat: 10.79, lng: -2.49 } })[0]).toBe('geonames:9900002');
    expect(ids('Madina', { near: { lat: 9.95, lng: -1.21 } })[0]).toBe('geonames:9900001');
    const near = search('Kumasi', { near: { lat: 5.46, lng: -0.96 } }).hits[0];
    expect(near.distance_m).toBeGreaterThan(0);
    expect(near.distance_m).toBeLessThan(1000);
  });

  it('leaves out the same place repeated by another level or source nearby (the city and its district)', () => {
    const kumasi = ids('Kumasi');
    expect(kumasi).toContain('geonames:2298890');
    expect(kumasi).not.toContain('geonames:7649000'); // the ADM2 "Kumasi" 0.9 km from the city
    // Accra's ADM2 lies 3.5 km from the city: a different place as far as search can tell.
    expect(ids('Accra')).toEqual(expect.arrayContaining(['geonames:2306104', 'geonames:7648922']));
  });

  it('finds places by their alternate names and says which name matched', () => {
    const [coomassie] = search('Coomassie').hits;
    expect(coomassie).toMatchObject({ match: 'alternate', matched_name: 'Coomassie', place: { name: 'Kumasi' } });
    expect(search('KBTH').hits[0].place.name).toBe('Korle Bu Teaching Hospital');
    expect(search('sekondi').hits[0].place.name).toBe('Sekondi-Takoradi');
    expect(search('asamankese').hits[0].place.name).toBe('Asamankésé');
  });

  it('completes the last word as a prefix (type-ahead)', () => {
    const [first] = search('kuma').hits;
    expect(first).toMatchObject({ match: 'prefix', place: { id: 'geonames:2298890' } });
    expect(search('korle bu teach').hits[0].place.name).toBe('Korle Bu Teaching Hospital');
    // only the last word is a prefix
    expect(search('kum teaching').hits).toEqual([]);
  });

  it('matches a word against the region or district when the name lacks it', () => {
    const hits = search('madina accra').hits;
    expect(hits.map((hit) => hit.place.name)).toEqual(['Madina', 'Madina Station']);
    expect(hits.every((hit) => hit.place.region === 'Greater Accra')).toBe(true);
    // region words alone do not match a place
    expect(ids('greater')).toEqual([]);
  });

  it('suggests the known name for a misspelling and lists its places after the query’s own', () => {
    const result = search('Acra');
    expect(result.did_you_mean).toBe('Accra');
    // Acrama matches "acra" as a prefix: the query's own match comes first, although Accra scores higher.
    expect(result.hits[0]).toMatchObject({ match: 'prefix', place: { name: 'Acrama' } });
    const accra = result.hits.find((hit) => hit.place.id === 'geonames:2306104');
    expect(accra?.match).toBe('fuzzy');
    expect(accra!.score).toBeGreaterThan(result.hits[0].score);
  });

  it('suggests and finds the place when nothing matches the query itself', () => {
    const result = search('Kumsai');
    expect(result.did_you_mean).toBe('Kumasi');
    expect(result.hits[0]).toMatchObject({ match: 'fuzzy', place: { id: 'geonames:2298890' } });
  });

  it('suggests the name itself when the query is one of its alternate spellings', () => {
    const result = search('Kumasy');
    expect(result.hits[0]).toMatchObject({ match: 'alternate', place: { id: 'geonames:2298890' } });
    expect(result.did_you_mean).toBe('Kumasi');
    // a former name far from the name is not a misspelling of it
    expect(search('Coomassie').did_you_mean).toBeNull();
  });

  it('suggests nothing for a query that names a place, nor for a short or hopeless one', () => {
    expect(search('Kumasi').did_you_mean).toBeNull();
    expect(search('Tema').did_you_mean).toBeNull();
    expect(search('Tmx').did_you_mean).toBeNull();
    expect(search('Zzyzx Qwerty')).toEqual({ hits: [], more: false, did_you_mean: null });
  });

  it('pages through the results without repeating one', () => {
    const first = search('Kumasi', { limit: 2 });
    const second = search('Kumasi', { limit: 2, offset: 2 });
    expect(first.more).toBe(true);
    expect(first.hits).toHaveLength(2);
    const all = search('Kumasi', { limit: 50 });
    expect([...first.hits, ...second.hits].map((hit) => hit.place.id)).toEqual(all.hits.slice(0, 4).map((hit) => hit.place.id));
    expect(all.more).toBe(false);
  });

  it('answers nothing for a query without letters or digits', () => {
    expect(search('!!!')).toEqual({ hits: [], more: false, did_you_mean: null });
  });
});
