import { cellToLatLng, cellToParent, getHexagonEdgeLengthAvg, getResolution, gridDisk, latLngToCell, UNITS } from 'h3-js';
import { coverResolution, coverShape, DESCENDANT_REACH_EDGES, FINEST_COVER_RESOLUTION, MAX_COVER_CANDIDATES } from './cover.js';
import { seededRandom } from '../../../../../test/support/seeded-random.js';
import { greatCircleM } from '../../../../platform/src/geo/geodesy.js';
import { Circle, Polygon } from './geometry.js';

describe('the H3 facts the cover relies on', () => {
  const next = seededRandom(7);
  const points = Array.from({ length: 30_000 }, () => ({
    lat: (Math.asin(2 * next() - 1) * 180) / Math.PI * (85 / 90),
    lng: next() * 360 - 180,
    res: Math.floor(next() * 15),
  }));

  it("a point's logical ancestor is its geometric cell or a neighbour of it", () => {
    let differing = 0;
    for (const { lat, lng, res } of points) {
      const logical = cellToParent(latLngToCell(lat, lng, 15), res);
      const geometric = latLngToCell(lat, lng, res);
      if (logical !== geometric) {
        differing++;
        expect(gridDisk(geometric, 1)).toContain(logical);
      }
    }
    // The distinction is real: without the widened cover a few percent of pings would be missed.
    expect(differing).toBeGreaterThan(points.length * 0.02);
  });

  it("a point lies well within DESCENDANT_REACH_EDGES edge lengths of its logical ancestor's centre", () => {
    let worst = 0;
    for (const { lat, lng, res } of points) {
      const [cLat, cLng] = cellToLatLng(cellToParent(latLngToCell(lat, lng, 15), res));
      worst = Math.max(worst, greatCircleM(lat, lng, cLat, cLng) / getHexagonEdgeLengthAvg(res, UNITS.m));
    }
    expect(worst).toBeGreaterThan(1);
    expect(worst).toBeLessThan(DESCENDANT_REACH_EDGES * 0.7);
  });
});

describe('coverShape', () => {
  it('picks the finest resolution for the smallest circles and coarser ones for larger shapes', () => {
    expect(coverResolution(new Circle(5.6, -0.19, 10).areaM2)).toBe(FINEST_COVER_RESOLUTION);
    expect(coverResolution(new Circle(5.6, -0.19, 500).areaM2)).toBeLessThan(FINEST_COVER_RESOLUTION);
    expect(coverResolution(new Circle(5.6, -0.19, 50_000).areaM2)).toBeLessThan(coverResolution(new Circle(5.6, -0.19, 500).areaM2));
  });

  it('marks inside only cells far from the edge and compacts them', () => {
    const circle = new Circle(5.6, -0.19, 20_000);
    const cover = coverShape(circle, coverResolution(circle.areaM2) + 2);
    expect(cover.inside.some((cell) => getResolution(cell) < cover.resolution)).toBe(true);
    expect(cover.inside.length).toBeGreaterThan(0);
    const margin = DESCENDANT_REACH_EDGES * getHexagonEdgeLengthAvg(cover.resolution, UNITS.m);
    for (const cell of cover.inside) {
      expect(getResolution(cell)).toBeLessThanOrEqual(cover.resolution);
      const [lat, lng] = cellToLatLng(cell);
      if (getResolution(cell) === cover.resolution) expect(circle.signedDistanceM(lat, lng)).toBeLessThan(-margin);
    }
    for (const cell of cover.boundary) {
      expect(getResolution(cell)).toBe(cover.resolution);
      const [lat, lng] = cellToLatLng(cell);
      expect(Math.abs(circle.signedDistanceM(lat, lng))).toBeLessThanOrEqual(margin);
    }
  });

  it('covers polygons with many vertices one resolution finer, so that their interior skips the exact test', () => {
    const ring: number[] = [];
    for (let i = 0; i <= 100; i++) ring.push(-0.19 + 0.1 * Math.cos((2 * Math.PI * i) / 100), 5.6 + 0.1 * Math.sin((2 * Math.PI * i) / 100));
    ring.splice(-2, 2, ring[0], ring[1]);
    const detailed = new Polygon([Float64Array.from(ring)]);
    expect(coverResolution(detailed.areaM2, 100)).toBe(coverResolution(detailed.areaM2) + 1);
    expect(coverShape(detailed).inside.length).toBeGreaterThan(0);
  });

  it('keeps a long thin corridor within the candidate budget by going coarser', () => {
    const corridor = new Polygon([Float64Array.from([-4, 5, 4, 5, 4, 5.0001, -4, 5.0001, -4, 5])]);
    const cover = coverShape(corridor);
    expect(cover.resolution).toBeLessThan(coverResolution(corridor.areaM2));
    expect(cover.inside.length + cover.boundary.length).toBeLessThanOrEqual(MAX_COVER_CANDIDATES);
  });
});
