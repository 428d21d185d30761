import { cellToBoundary, cellToLatLng, greatCircleDistance, latLngToCell } from 'h3-js';
import { greatCircleMetres } from './great-circle.js';
import { seededRandom as random } from '../../../platform/src/testing/seeded-random.js';

describe('greatCircleMetres', () => {
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
      const ours = greatCircleMetres(lat1, lng1, lat2, lng2);
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
        const ours = greatCircleMetres(lat, lng, cornerLat, cornerLng);
        const h3 = greatCircleDistance([lat, lng], [cornerLat, cornerLng], 'm');
        if (!Object.is(ours, h3)) throw new Error(`${cell}, corner (${cornerLat}, ${cornerLng}): ${ours} ≠ ${h3}`);
        corners++;
      }
    }
    expect(corners).toBeGreaterThanOrEqual(5_000 * 5);
  });
});
