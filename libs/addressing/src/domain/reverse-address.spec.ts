import { reverseAddress, type PlaceNames } from './reverse-address.js';

const part = (name: string, dataset = 'boundaries', distance_m = 0) => ({ name, dataset, distance_m });
const names = (overrides: Partial<PlaceNames> = {}): PlaceNames => ({
  country: { code: 'GH', name: 'Ghana' },
  region: part('Greater Accra'),
  district: part('Accra Metropolis'),
  locality: { ...part('Accra Central', 'places/osm', 220), kind: 'suburb', lat: 5.55, lng: -0.21 },
  landmark: { ...part('Makola Market', 'places/osm', 60), kind: 'marketplace', slug: 'makola-market-0123456789', lat: 5.55, lng: -0.21 },
  datasets: [],
  ...overrides,
});
const road = { name: 'Kojo Thompson Road', ref: 'R40', dataset: 'roads', distance_m: 110, version: { dataset: 'roads', version: 'v1', imported_at: '2026-01-01T00:00:00Z' } };

describe('the formatted reverse label (issue 28, item 7)', () => {
  it('reads landmark, locality, district, region', () => {
    expect(reverseAddress(names(), road).formatted).toBe('near Makola Market, Accra Central, Accra Metropolis, Greater Accra');
  });

  it('falls back to the road without a landmark, and says a name once', () => {
    expect(reverseAddress(names({ landmark: null, locality: { ...part('Accra', 'places/geonames', 900), kind: 'city', lat: 0, lng: 0 }, district: part('accra') }), road).formatted).toBe(
      'Kojo Thompson Road (R40), Accra, Greater Accra',
    );
  });

  it('has no label when nothing places the point in an area or a settlement', () => {
    expect(reverseAddress(null, null)).toMatchObject({ formatted: null, country: null, datasets: [] });
    expect(reverseAddress(names({ country: null, region: null, district: null, locality: null }), road).formatted).toBeNull();
  });

  it('lists the road network among the datasets used', () => {
    expect(reverseAddress(names(), road).datasets).toEqual([road.version]);
  });
});
