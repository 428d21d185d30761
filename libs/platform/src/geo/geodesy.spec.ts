import { cellToBoundary, cellToLatLng, greatCircleDistance, latLngToCell } from 'h3-js';
import { seededRandom as random } from '../testing/seeded-random.js';
import { bearing, cosPoleWithin, destination, EARTH_RADIUS_M, greatCircleFloorM, greatCircleM, isCoordinate, isLatitude, isLongitude, projectOnSegment, sideOf } from './geodesy.js';

const ACCRA = { lat: 5.6037, lng: -0.187 };

describe('greatCircleM', () => {
  it('is h3-js greatCircleDistance in metres, bit for bit, from neighbouring points to antipodes', () => {
    const next = random(19);
    let compared = 0;
    for (let i = 0; i < 100_000; i++) {
      const lat1 = next() * 180 - 90;
      const lng1 = next() * 360 - 180;
      // A third of the pairs within metres of each other (the cell radii answers round), the rest anywhere.
      const near = i % 3 === 0;
      const lat2 = near ? Math.max(-90, Math.min(90, lat1 + (next() - 0.5) * 1e-3)) : next() * 180 - 90;
      const lng2 = near ? lng1 + (next() - 0.5) * 1e-3 : next() * 360 - 180;
      const ours = greatCircleM(lat1, lng1, lat2, lng2);
      const h3 = greatCircleDistance([lat1, lng1], [lat2, lng2], 'm');
      if (!Object.is(ours, h3)) throw new Error(`(${lat1}, ${lng1}) → (${lat2}, ${lng2}): ${ours} ≠ ${h3}`);
      compared++;
    }
    expect(compared).toBe(100_000);
  });

  it('is h3-js greatCircleDistance from a cell centre to each of its corners, at every resolution', () => {
    const next = random(7);
    let corners = 0;
    for (let i = 0; i < 5_000; i++) {
      const cell = latLngToCell(next() * 170 - 85, next() * 360 - 180, i % 16);
      const [lat, lng] = cellToLatLng(cell);
      for (const [cornerLat, cornerLng] of cellToBoundary(cell)) {
        const ours = greatCircleM(lat, lng, cornerLat, cornerLng);
        const h3 = greatCircleDistance([lat, lng], [cornerLat, cornerLng], 'm');
        if (!Object.is(ours, h3)) throw new Error(`${cell}, corner (${cornerLat}, ${cornerLng}): ${ours} ≠ ${h3}`);
        corners++;
      }
    }
    expect(corners).toBeGreaterThanOrEqual(5_000 * 5);
  });

  it('measures a degree of the equator and half the globe on the one radius', () => {
    expect(greatCircleM(0, 0, 0, 1)).toBeCloseTo((EARTH_RADIUS_M * Math.PI) / 180, 6);
    expect(greatCircleM(0, 0, 0, 180)).toBeCloseTo(EARTH_RADIUS_M * Math.PI, 4);
    expect(greatCircleM(ACCRA.lat, ACCRA.lng, ACCRA.lat, ACCRA.lng)).toBe(0);
  });
});

describe('bearing and destination', () => {
  it('gives whole degrees clockwise from north', () => {
    expect(bearing(0, 0, 1, 0)).toBe(0);
    expect(bearing(0, 0, 0, 1)).toBe(90);
    expect(bearing(0, 0, -1, 0)).toBe(180);
    expect(bearing(0, 0, 0, -1)).toBe(270);
  });

  it('walks out and measures back the same distance and bearing', () => {
    for (const heading of [0, 45, 135, 225, 315]) {
      const there = destination(ACCRA.lat, ACCRA.lng, heading, 5_000);
      expect(greatCircleM(ACCRA.lat, ACCRA.lng, there.lat, there.lng)).toBeCloseTo(5_000, 6);
      expect(bearing(ACCRA.lat, ACCRA.lng, there.lat, there.lng)).toBe(heading);
    }
  });
});

describe('projectOnSegment and sideOf', () => {
  it('finds the nearest point of a segment, clamped to its ends', () => {
    const a = destination(ACCRA.lat, ACCRA.lng, 90, -500);
    const b = destination(ACCRA.lat, ACCRA.lng, 90, 500);
    const north = destination(ACCRA.lat, ACCRA.lng, 0, 30);
    const middle = projectOnSegment(north.lat, north.lng, a.lat, a.lng, b.lat, b.lng);
    expect(middle.t).toBeCloseTo(0.5, 3);
    expect(middle.distanceM).toBeCloseTo(30, 1);
    const beyond = destination(b.lat, b.lng, 90, 200);
    const end = projectOnSegment(beyond.lat, beyond.lng, a.lat, a.lng, b.lat, b.lng);
    expect(end.t).toBe(1);
    expect(end.distanceM).toBeCloseTo(200, 0);
    expect(sideOf(north.lat, north.lng, a.lat, a.lng, b.lat, b.lng)).toBeGreaterThan(0);
    expect(sideOf(north.lat, north.lng, b.lat, b.lng, a.lat, a.lng)).toBeLessThan(0);
  });

  it('handles a segment of zero length', () => {
    expect(projectOnSegment(ACCRA.lat + 0.001, ACCRA.lng, ACCRA.lat, ACCRA.lng, ACCRA.lat, ACCRA.lng)).toMatchObject({ t: 0, lat: ACCRA.lat, lng: ACCRA.lng });
  });
});

describe('coordinate checks', () => {
  it.each([
    [0, 0, true],
    [90, 180, true],
    [-90, -180, true],
    [90.000001, 0, false],
    [0, -180.000001, false],
    [Number.NaN, 0, false],
    [0, Number.POSITIVE_INFINITY, false],
    ['5', 0, false],
    [null, 0, false],
  ])('(%p, %p) is a coordinate: %p', (lat, lng, expected) => {
    expect(isCoordinate(lat, lng)).toBe(expected);
    expect(isLatitude(lat) && isLongitude(lng)).toBe(expected);
  });
});

describe('greatCircleFloorM', () => {
  it('never exceeds the great-circle distance, near and far, at every latitude and across the antimeridian', () => {
    let seed = 11;
    const next = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    let tight = 0;
    for (let i = 0; i < 20_000; i++) {
      const lat = -85 + next() * 170;
      const lng = -180 + next() * 360;
      const radius = [10, 500, 5_000, 50_000, 500_000][i % 5];
      const spread = (radius / 111_000) * 1.5;
      const lat2 = Math.max(-90, Math.min(90, lat + (next() * 2 - 1) * spread));
      let lng2 = lng + ((next() * 2 - 1) * spread) / Math.max(0.05, Math.cos((lat * Math.PI) / 180));
      if (lng2 > 180) lng2 -= 360;
      if (lng2 < -180) lng2 += 360;
      const exact = greatCircleM(lat, lng, lat2, lng2);
      const floor = greatCircleFloorM(lat, lng, lat2, lng2, cosPoleWithin(lat, radius));
      // Within the radius the floor holds; beyond it the caller only needs it not to keep a point it should drop.
      if (exact <= radius) expect(floor).toBeLessThanOrEqual(exact);
      if (exact <= radius && exact > 100 && floor > exact * 0.99) tight++;
    }
    // It is a useful floor, not zero: most pairs within 50 km lie within 1 % of it (beyond ~64 km only the latitude counts).
    expect(tight).toBeGreaterThan(3_000);
  });
});
