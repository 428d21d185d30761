import { placeFromGeoNames } from './geonames.js';
import { placeFromOsm, poiFeature } from './osm-tags.js';

const row = (overrides: Partial<Record<'id' | 'name' | 'alternates' | 'lat' | 'lng' | 'class' | 'code' | 'population', string>> = {}) => {
  const r = { id: '1', name: 'Tema', alternates: '', lat: '5.6698', lng: '-0.01657', class: 'P', code: 'PPL', population: '161612', ...overrides };
  return [r.id, r.name, r.name, r.alternates, r.lat, r.lng, r.class, r.code, 'GH', '', '00', '', '', '', r.population, '', '10', 'Africa/Accra', '2020-01-01'];
};

describe('GeoNames rows', () => {
  it('become places with a kind and an importance from population and class', () => {
    expect(placeFromGeoNames(row())).toMatchObject({ id: 'geonames:1', source: 'geonames', name: 'Tema', kind: 'city', feature: 'P.PPL', lat: 5.6698, lng: -0.01657, population: 161612 });
    const capital = placeFromGeoNames(row({ code: 'PPLC', population: '1963264' }))!;
    const town = placeFromGeoNames(row({ population: '8000' }))!;
    const village = placeFromGeoNames(row({ population: '0' }))!;
    const stream = placeFromGeoNames(row({ class: 'H', code: 'STM', population: '0' }))!;
    expect([town.kind, village.kind, stream.kind]).toEqual(['town', 'village', 'stream']);
    expect(village.population).toBeNull();
    expect(capital.importance).toBe(1);
    expect(capital.importance).toBeGreaterThan(town.importance);
    expect(town.importance).toBeGreaterThan(village.importance);
    expect(village.importance).toBeGreaterThan(stream.importance);
  });

  it('keep distinct alternate names, never the name itself', () => {
    const place = placeFromGeoNames(row({ name: 'Kumasi', alternates: 'Coomassie,Kumasi,KUMASI, Kumase ,,Coomassie' }))!;
    expect(place.alt_names).toEqual(['Coomassie', 'Kumase']);
  });

  it('refuse rows that are not GeoNames rows', () => {
    expect(placeFromGeoNames(['not', 'a', 'row'])).toBeNull();
    expect(placeFromGeoNames(row({ id: 'abc' }))).toBeNull();
    expect(placeFromGeoNames(row({ lat: '' }))).toBeNull();
    expect(placeFromGeoNames(row({ name: ' ' }))).toBeNull();
  });
});

describe('OSM tags', () => {
  it('qualify a named object through the first POI key it carries', () => {
    expect(poiFeature({ name: 'Madina', highway: 'bus_stop', public_transport: 'platform' })).toEqual({ key: 'highway', value: 'bus_stop' });
    expect(poiFeature({ name: 'Kojo Thompson Road', highway: 'primary' })).toBeNull();
    expect(poiFeature({ amenity: 'hospital' })).toBeNull();
    expect(poiFeature({ name: 'Ghost', amenity: 'no' })).toBeNull();
  });

  it('keep what landmarks need: phone, website, opening hours, and a few more tags', () => {
    const place = placeFromOsm(
      'node',
      42,
      { amenity: 'hospital', name: 'Korle Bu', 'contact:phone': '+233 30 266 6424', url: 'https://kbth.gov.gh', opening_hours: '24/7', wikidata: 'Q1', alt_name: 'KBTH;Korle-Bu', 'name:fr': 'Hôpital Korle Bu' },
      5.536,
      -0.227,
    )!;
    expect(place).toMatchObject({
      id: 'osm:node/42',
      kind: 'hospital',
      feature: 'amenity=hospital',
      phone: '+233 30 266 6424',
      website: 'https://kbth.gov.gh',
      opening_hours: '24/7',
      tags: { wikidata: 'Q1' },
      alt_names: ['KBTH', 'Hôpital Korle Bu'],
    });
    const plain = placeFromOsm('node', 43, { amenity: 'hospital', name: 'Small Clinic' }, 5.5, -0.2)!;
    expect(place.importance).toBeGreaterThan(plain.importance);
    expect(plain).toMatchObject({ phone: null, website: null, opening_hours: null });
    expect(plain.tags).toBeUndefined();
  });

  it('name generic values after their key', () => {
    expect(placeFromOsm('way', 1, { building: 'yes', name: 'Accra Mall Tower' }, 5.6, -0.17)?.kind).toBe('building');
    expect(placeFromOsm('node', 1, { place: 'city', name: 'Accra', population: '2,000,000' }, 5.6, -0.17)).toMatchObject({ kind: 'city', population: 2_000_000 });
  });
});
