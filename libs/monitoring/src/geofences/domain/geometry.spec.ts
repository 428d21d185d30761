import { InvalidParamError } from '../../../../platform/src/errors.js';
import { FENCE_POLYGON_LIMITS } from './geofence.js';
import { destination, EARTH_RADIUS_M, greatCircleM } from '../../../../platform/src/geo/geodesy.js';
import { Circle, Polygon, segmentsMeet } from './geometry.js';

const parse = (coordinates: number[][][]) => Polygon.parse({ type: 'Polygon', coordinates }, 'polygon', FENCE_POLYGON_LIMITS);

function refused(build: () => unknown): InvalidParamError {
  try {
    build();
  } catch (error) {
    if (error instanceof InvalidParamError) return error;
    throw error;
  }
  throw new Error('expected an InvalidParamError');
}

// A "U" around Accra, 0.02° (≈2.2 km) a side: the notch is outside although it lies within the bounding box.
const U = [
  [-0.2, 5.6],
  [-0.14, 5.6],
  [-0.14, 5.66],
  [-0.16, 5.66],
  [-0.16, 5.62],
  [-0.18, 5.62],
  [-0.18, 5.66],
  [-0.2, 5.66],
  [-0.2, 5.6],
];
const SQUARE = [
  [0, 0],
  [0.1, 0],
  [0.1, 0.1],
  [0, 0.1],
  [0, 0],
];
const HOLE = [
  [0.04, 0.04],
  [0.06, 0.04],
  [0.06, 0.06],
  [0.04, 0.06],
  [0.04, 0.04],
];

describe('circle', () => {
  const circle = new Circle(5.6037, -0.187, 500);

  it('holds points just inside its radius and not just outside, in every direction', () => {
    for (let bearing = 0; bearing < 360; bearing += 15) {
      const inside = destination(5.6037, -0.187, bearing, 499.99);
      const outside = destination(5.6037, -0.187, bearing, 500.01);
      expect(circle.contains(inside.lat, inside.lng)).toBe(true);
      expect(circle.contains(outside.lat, outside.lng)).toBe(false);
    }
  });

  it('counts a point exactly at the radius as inside (the edge belongs to the fence)', () => {
    const point = destination(5.6037, -0.187, 73, 500);
    const exact = new Circle(5.6037, -0.187, greatCircleM(5.6037, -0.187, point.lat, point.lng));
    expect(exact.contains(point.lat, point.lng)).toBe(true);
    expect(exact.signedDistanceM(point.lat, point.lng)).toBe(0);
  });

  it('signs the distance to its edge', () => {
    expect(circle.signedDistanceM(5.6037, -0.187)).toBeCloseTo(-500, 6);
    const far = destination(5.6037, -0.187, 200, 1500);
    expect(circle.signedDistanceM(far.lat, far.lng)).toBeCloseTo(1000, 3);
  });

  it('is covered by its cover ring', () => {
    const ring = new Polygon([Float64Array.from(circle.coverRings()[0].flat())]);
    for (let bearing = 0; bearing < 360; bearing += 7) {
      const edge = destination(5.6037, -0.187, bearing, 500);
      expect(ring.contains(edge.lat, edge.lng)).toBe(true);
    }
  });
});

describe('polygon membership', () => {
  const u = parse([U]);

  it('excludes the notch of a concave polygon and includes its arms', () => {
    expect(u.contains(5.65, -0.17)).toBe(false);
    expect(u.contains(5.65, -0.19)).toBe(true);
    expect(u.contains(5.65, -0.15)).toBe(true);
    expect(u.contains(5.61, -0.17)).toBe(true);
    expect(u.contains(5.7, -0.17)).toBe(false);
  });

  it('counts points on edges and vertices as inside, including the notch edges', () => {
    expect(u.contains(5.6, -0.17)).toBe(true);
    expect(u.contains(5.64, -0.16)).toBe(true);
    expect(u.contains(5.62, -0.17)).toBe(true);
    expect(u.contains(5.66, -0.18)).toBe(true);
    expect(u.contains(5.66, -0.14)).toBe(true);
    // A point a third of the way along a diagonal edge is not exactly representable: the tolerance keeps it inside.
    const triangle = parse([[[0, 0], [0.3, 0.1], [0.1, 0.2]]]);
    expect(triangle.contains(0.2 / 3, 0.1 / 3)).toBe(true);
    expect(triangle.contains(0.2 / 3, 0.1 / 3 + 1e-6)).toBe(true);
    expect(triangle.contains(0.2 / 3, 0.1 / 3 - 1e-6)).toBe(false);
  });

  it('excludes holes but keeps their edges', () => {
    const holed = parse([SQUARE, HOLE]);
    expect(holed.contains(0.05, 0.05)).toBe(false);
    expect(holed.contains(0.04, 0.05)).toBe(true);
    expect(holed.contains(0.03, 0.05)).toBe(true);
    expect(holed.areaM2).toBeLessThan(parse([SQUARE]).areaM2);
    expect(holed.areaM2 / parse([SQUARE]).areaM2).toBeCloseTo(0.96, 3);
  });

  it('signs the distance to the nearest edge, holes included', () => {
    const holed = parse([SQUARE, HOLE]);
    expect(holed.signedDistanceM(0.05, 0.02)).toBeCloseTo(-0.02 * 111_195, -1);
    expect(holed.signedDistanceM(0.05, 0.05)).toBeCloseTo(0.01 * 111_195, -1);
    expect(holed.signedDistanceM(0.05, -0.01)).toBeCloseTo(0.01 * 111_195, -1);
  });

  it('measures area on the sphere', () => {
    // 0.1° × 0.1° at the equator: (0.1 · π/180 · R)² within 0.1 %.
    const side = 0.1 * (Math.PI / 180) * EARTH_RADIUS_M;
    expect(parse([SQUARE]).areaM2 / (side * side)).toBeCloseTo(1, 3);
  });
});

describe('polygon validation', () => {
  it('closes open rings and drops repeated consecutive vertices', () => {
    const polygon = parse([[[0, 0], [0.1, 0], [0.1, 0], [0.1, 0.1], [0, 0.1]]]);
    expect(polygon.toGeoJson()).toEqual({ type: 'Polygon', coordinates: [SQUARE] });
  });

  it.each([
    ['a bow tie', [[[0, 0], [0.1, 0.1], [0.1, 0], [0, 0.1], [0, 0]]], 'polygon.coordinates[0]', /crosses or touches itself/],
    ['a ring touching itself at a vertex', [[[0, 0], [0.2, 0], [0.1, 0.1], [0.2, 0.2], [0, 0.2], [0.1, 0.1], [0, 0]]], 'polygon.coordinates[0]', /itself/],
    ['a spike folding back along an edge', [[[0, 0], [0.2, 0], [0.1, 0], [0.1, 0.1], [0, 0]]], 'polygon.coordinates[0]', /itself/],
    ['two distinct vertices', [[[0, 0], [0.1, 0], [0, 0]]], 'polygon.coordinates[0]', /at least 3 distinct/],
    ['collinear vertices', [[[0, 0], [0.1, 0], [0.2, 0]]], 'polygon', /area/],
    ['a longitude out of range', [[[181, 0], [0.1, 0], [0.1, 0.1]]], 'polygon.coordinates[0][0][0]', /longitude/],
    ['a polar latitude', [[[0, 86], [0.1, 86], [0.1, 86.1]]], 'polygon.coordinates[0][0][1]', /latitude/],
    ['a string coordinate', [[[0, '1'], [0.1, 0], [0.1, 0.1]]], 'polygon.coordinates[0][0][1]', /latitude/],
    ['an edge across the antimeridian', [[[179.9, 0], [-179.9, 0], [-179.9, 0.1]]], 'polygon.coordinates[0][1]', /antimeridian/],
    ['a hole outside the outer ring', [SQUARE, HOLE.map(([x, y]) => [x + 0.2, y])], 'polygon.coordinates[1]', /inside the outer ring/],
    ['a hole touching the outer ring', [SQUARE, [[0, 0.04], [0.06, 0.04], [0.06, 0.06], [0, 0.04]]], 'polygon.coordinates[1]', /cross or touch/],
    ['nested holes', [SQUARE, HOLE, [[0.045, 0.045], [0.055, 0.045], [0.055, 0.055], [0.045, 0.045]]], 'polygon.coordinates[2]', /inside each other/],
    ['a tiny polygon', [[[0, 0], [0.00001, 0], [0.00001, 0.00001], [0, 0]]], 'polygon', /at least 100 m²/],
    ['a huge polygon', [[[0, 0], [2, 0], [2, 2], [0, 2]]], 'polygon', /at most 10000 km²/],
  ])('refuses %s', (_name, coordinates, field, message) => {
    const error = refused(() => parse(coordinates as number[][][]));
    expect(error.field).toBe(field);
    expect(error.message).toMatch(message);
  });

  it.each([
    [null, 'polygon'],
    [{ type: 'MultiPolygon', coordinates: [] }, 'polygon.type'],
    [{ type: 'Polygon', coordinates: [] }, 'polygon.coordinates'],
    [{ type: 'Polygon', coordinates: [[[0, 0], [1, 0], [1, 1]]], extra: 1 }, 'polygon.extra'],
    [{ type: 'Polygon', coordinates: [[[0, 0], [1, 0], 7]] }, 'polygon.coordinates[0][2]'],
  ])('refuses the malformed %j naming %s', (value, field) => {
    expect(refused(() => Polygon.parse(value, 'polygon', FENCE_POLYGON_LIMITS)).field).toBe(field);
  });

  it('refuses more vertices than the limit and more holes than the limit', () => {
    const ring = Array.from({ length: 1001 }, (_, i) => {
      const angle = (2 * Math.PI * i) / 1001;
      return [0.1 * Math.cos(angle), 0.1 * Math.sin(angle)];
    });
    expect(refused(() => parse([ring])).message).toMatch(/at most 1000 vertices/);
    const holes = Array.from({ length: 21 }, (_, i) => [
      [0.001 + i * 0.004, 0.05],
      [0.003 + i * 0.004, 0.05],
      [0.002 + i * 0.004, 0.052],
    ]);
    expect(refused(() => parse([SQUARE, ...holes])).message).toMatch(/at most 20 holes/);
    expect(parse([SQUARE, ...holes.slice(0, 20)]).rings).toHaveLength(21);
  });
});

describe('segmentsMeet', () => {
  it.each([
    [[0, 0, 1, 1, 0, 1, 1, 0], true],
    [[0, 0, 1, 0, 1, 0, 2, 1], true],
    [[0, 0, 2, 0, 1, 0, 3, 0], true],
    [[0, 0, 1, 0, 2, 0, 3, 0], false],
    [[0, 0, 1, 0, 0, 1, 1, 1], false],
    [[0, 0, 1, 1, 2, 2, 3, 0], false],
  ])('%j → %s', (coordinates, expected) => {
    const [ax, ay, bx, by, cx, cy, dx, dy] = coordinates as number[];
    expect(segmentsMeet(ax, ay, bx, by, cx, cy, dx, dy)).toBe(expected);
    expect(segmentsMeet(cx, cy, dx, dy, ax, ay, bx, by)).toBe(expected);
  });
});
