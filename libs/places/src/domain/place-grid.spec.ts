import { greatCircleM } from '../../../platform/src/geo/geodesy.js';
import type { Place } from './place.js';
import { MAX_NEAR_RADIUS_M, PlaceGrid } from './place-grid.js';
import { seededRandom as random } from '../../../platform/src/testing/seeded-random.js';

function place(id: string, lat: number, lng: number): Place {
  return { id, source: 'osm', name: id, alt_names: [], kind: 'shop', feature: 'shop=yes', lat, lng, population: null, importance: 0.1, region: null, district: null, phone: null, website: null, opening_hours: null };
}

describe('PlaceGrid', () => {
  it('finds exactly the places a scan of all of them finds, nearest first', () => {
    const next = random(42);
    // Accra-sized: 3,000 places in 0.2° × 0.2°, with a dense cluster and some on bucket edges.
    const places = Array.from({ length: 3000 }, (_, i) => place(`p${i}`, 5.5 + next() * 0.2, -0.3 + next() * 0.2));
    places.push(place('edge-a', 5.6, -0.2), place('edge-b', 5.61, -0.19), place('twin-1', 5.6001, -0.2001), place('twin-2', 5.6001, -0.2001));
    const grid = new PlaceGrid(places);
    for (let q = 0; q < 200; q++) {
      const lat = 5.48 + next() * 0.24;
      const lng = -0.32 + next() * 0.24;
      const radius = [5, 50, 400, 1500, 4000][q % 5];
      const expected = places
        .map((p) => ({ id: p.id, d: greatCircleM(lat, lng, p.lat, p.lng) }))
        .filter((hit) => hit.d <= radius)
        .sort((a, b) => a.d - b.d);
      const found = grid.near(lat, lng, radius, 10_000);
      expect(found.map((hit) => hit.place.id).sort()).toEqual(expected.map((hit) => hit.id).sort());
      for (let i = 1; i < found.length; i++) expect(found[i].distance_m).toBeGreaterThanOrEqual(found[i - 1].distance_m);
    }
  });

  it('answers the nearest alone as a scan of every place does, ties by id included', () => {
    const next = random(7);
    const places = Array.from({ length: 2000 }, (_, i) => place(`p${i}`, 5.5 + next() * 0.2, -0.3 + next() * 0.2));
    // Twins at one point, and a pair 0.04 m apart (the same distance once rounded to the decimetre).
    places.push(place('twin-b', 5.6001, -0.2001), place('twin-a', 5.6001, -0.2001), place('near-b', 5.6003, -0.2003), place('near-a', 5.6003, -0.20030035));
    const grid = new PlaceGrid(places);
    const queries = [{ lat: 5.6, lng: -0.2 }, { lat: 5.6004, lng: -0.2004 }, ...Array.from({ length: 300 }, () => ({ lat: 5.48 + next() * 0.24, lng: -0.32 + next() * 0.24 }))];
    for (const { lat, lng } of queries) {
      const [expected] = places
        .map((p) => ({ id: p.id, d: Math.round(greatCircleM(lat, lng, p.lat, p.lng) * 10) / 10 }))
        .filter((hit) => hit.d <= 5000)
        .sort((a, b) => a.d - b.d || (a.id < b.id ? -1 : 1));
      const [found] = grid.near(lat, lng, 5000, 1);
      expect(found ? { id: found.place.id, d: found.distance_m } : undefined).toEqual(expected);
    }
  });

  it('keeps the nearest `limit`, breaking distance ties by id', () => {
    const grid = new PlaceGrid([place('b', 5.6001, -0.2001), place('a', 5.6001, -0.2001), place('far', 5.61, -0.2), place('c', 5.6, -0.2)]);
    expect(grid.near(5.6, -0.2, 2000, 3).map((hit) => hit.place.id)).toEqual(['c', 'a', 'b']);
    expect(grid.near(5.6, -0.2, 2000, 3)[0].distance_m).toBe(0);
    expect(grid.near(5.6, -0.2, 2000, 0)).toEqual([]);
  });

  it('bounds the radius, and finds places across the antimeridian', () => {
    const grid = new PlaceGrid([place('east', 0, 179.999), place('west', 0, -179.999), place('far', 0.1, 0)]);
    expect(grid.near(0, 180, 500, 10).map((hit) => hit.place.id).sort()).toEqual(['east', 'west']);
    // 0.1° is 11 km: beyond the largest radius a query may ask for.
    expect(grid.near(0, 0, 50_000, 10)).toEqual([]);
    expect(grid.near(0, 0, MAX_NEAR_RADIUS_M * 3, 10)).toEqual([]);
  });
});
