import { greatCircleM } from '../../../../platform/src/geo/geodesy.js';
import type { Place } from '../../domain/place.js';
import { contains, LandmarkIndex, type Rectangle } from './landmark-index.js';
import { seededRandom as random } from '../../../../platform/src/testing/seeded-random.js';

function place(id: number, lat: number, lng: number, feature = 'amenity=bank'): Place {
  return {
    id: `osm:node/${id}`,
    source: 'osm',
    name: `Landmark ${id}`,
    alt_names: [],
    kind: feature.split('=')[1],
    feature,
    lat,
    lng,
    population: null,
    importance: 0.1,
    region: null,
    district: null,
    phone: null,
    website: null,
    opening_hours: null,
  };
}

describe('LandmarkIndex', () => {
  const next = random(42);
  // Accra-sized: a dense core and a sparse spread, some exactly on grid lines, plus places that are not landmarks.
  const places: Place[] = [];
  for (let i = 0; i < 4000; i++) places.push(place(i, 5.5 + next() * 0.1, -0.25 + next() * 0.1));
  for (let i = 4000; i < 5000; i++) places.push(place(i, 4.5 + next() * 3, -2 + next() * 3));
  for (let i = 5000; i < 5050; i++) places.push(place(i, 5.55 + Math.floor(next() * 5) * 0.01, -0.2 + Math.floor(next() * 5) * 0.01));
  for (let i = 5050; i < 5100; i++) places.push(place(i, 5.55 + next() * 0.01, -0.2, 'place=suburb'));
  const index = new LandmarkIndex(places);
  const landmarks = places.filter((candidate) => candidate.feature !== 'place=suburb');

  const bruteNearest = (lat: number, lng: number, radiusM: number, count: number) =>
    landmarks
      .map((candidate) => ({ id: candidate.id, d: greatCircleM(lat, lng, candidate.lat, candidate.lng) }))
      .filter((hit) => hit.d <= radiusM)
      .sort((a, b) => a.d - b.d)
      .slice(0, count);

  it('indexes landmarks only', () => {
    expect(index.size).toBe(landmarks.length);
  });

  it('answers the same nearest landmarks as a scan of all of them, for random points, radii and counts', () => {
    for (let trial = 0; trial < 300; trial++) {
      const lat = trial % 3 === 0 ? 4.5 + next() * 3 : 5.5 + next() * 0.1;
      const lng = trial % 3 === 0 ? -2 + next() * 3 : -0.25 + next() * 0.1;
      const radiusM = [50, 300, 1000, 5000, 50_000][trial % 5];
      const count = 1 + Math.floor(next() * 60);
      const expected = bruteNearest(lat, lng, radiusM, count);
      const actual = index.nearest({ lat, lng, radiusM, count });
      expect(actual.map((hit) => hit.distance_m)).toEqual(expected.map((hit) => hit.d));
    }
  });

  it('answers the landmarks inside a rectangle as a scan would, nearest the given point first', () => {
    for (let trial = 0; trial < 100; trial++) {
      const south = 5.5 + next() * 0.08;
      const west = -0.25 + next() * 0.08;
      const box: Rectangle = { south, west, north: south + next() * 0.05, east: west + next() * 0.05 };
      const centre = { lat: (box.north + box.south) / 2, lng: (box.east + box.west) / 2 };
      const inside = landmarks.filter((candidate) => contains(box, candidate));
      const found = index.inside(box, centre, 10_000);
      expect(found.map((hit) => hit.landmark.place.id).sort()).toEqual(inside.map((candidate) => candidate.id).sort());
      const firstTen = index.inside(box, centre, 10);
      expect(firstTen.map((hit) => hit.distance_m)).toEqual(found.slice(0, 10).map((hit) => hit.distance_m));
    }
  });

  it('applies the filter before counting, so a filtered query still fills its page', () => {
    const even = (id: string) => Number(id.split('/')[1]) % 2 === 0;
    const found = index.nearest({ lat: 5.55, lng: -0.2, radiusM: 5000, count: 20, accept: (landmark) => even(landmark.place.id) });
    expect(found).toHaveLength(20);
    expect(found.every((hit) => even(hit.landmark.place.id))).toBe(true);
  });

  it('finds landmarks across the antimeridian and the equator', () => {
    const edge = new LandmarkIndex([place(1, 0.001, 179.9995), place(2, -0.001, -179.9995)]);
    expect(edge.nearest({ lat: 0, lng: 180, radiusM: 1000, count: 5 }).map((hit) => hit.landmark.place.id).sort()).toEqual(['osm:node/1', 'osm:node/2']);
  });

  it('looks landmarks up by key, and serves neither of two objects that share one', () => {
    const [first] = index.nearest({ lat: 5.55, lng: -0.2, radiusM: 5000, count: 1 });
    expect(index.byKeyOf(first.landmark.key)).toBe(first.landmark);
    const duplicated = new LandmarkIndex([place(7, 5.5, -0.2), place(7, 5.5, -0.2)]);
    expect(duplicated.size).toBe(1);
    expect(duplicated.collisions).toEqual([]);
  });
});
