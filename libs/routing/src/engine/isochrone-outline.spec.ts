import { describe, expect, it } from '@jest/globals';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { cellToParent, getResolution, latLngToCell } from 'h3-js';
import { seededRandom } from '../../../platform/src/testing/seeded-random.js';
import { outlineIsochrone, ISOCHRONE_MAX_VERTICES } from './isochrone-outline.js';
import { IsochroneOutliner } from './isochrone-outliner.js';
import { metricsRegistry } from '../../../platform/src/index.js';

/** Jobs the named WorkPool ran on a thread (not in process): a thread module that is not there falls back silently otherwise. */
async function ranOnThread(pool: string): Promise<number> {
  const metric = await metricsRegistry.getSingleMetric('thread_pool_jobs_total')!.get();
  return metric.values.filter((value) => value.labels.pool === pool && value.labels.outcome === 'thread').reduce((sum, value) => sum + value.value, 0);
}

/** Road samples along a few spokes and rings around a centre in Accra, as lat, lng pairs (the centre first). */
function samples(spokes: number, lengthDeg: number, seed = 7): { data: Float64Array; count: number } {
  const random = seededRandom(seed);
  const points: number[] = [5.5503, -0.2076];
  for (let spoke = 0; spoke < spokes; spoke++) {
    const angle = (2 * Math.PI * spoke) / spokes + random() * 0.1;
    for (let step = 1; step <= 200; step++) {
      const r = (lengthDeg * step) / 200;
      points.push(5.5503 + r * Math.sin(angle), -0.2076 + r * Math.cos(angle));
    }
  }
  return { data: Float64Array.from(points), count: points.length / 2 };
}

/** The isochrone's outline (docs/adr/0042), made on a worker thread in the service. */
describe('outlineIsochrone', () => {
  it('outlines the cells the samples fall in, at the finest resolution that fits, with the centre cell in', () => {
    const { data, count } = samples(8, 0.01);
    const outline = outlineIsochrone(data, count)!;
    expect(outline.h3_resolution).toBe(9);
    expect(outline.polygon.coordinates[0].length - 1).toBeLessThanOrEqual(ISOCHRONE_MAX_VERTICES);
    expect(outline.h3_cells).toContain(latLngToCell(5.5503, -0.2076, 9));
    expect(outline.h3_cells).toEqual([...outline.h3_cells].sort());
    for (let i = 0; i < count; i += 50) expect(outline.h3_cells).toContain(latLngToCell(data[2 * i], data[2 * i + 1], 9));
  });

  it('goes coarser when the finest outline has too many vertices', () => {
    const { data, count } = samples(720, 0.6);
    const outline = outlineIsochrone(data, count)!;
    expect(outline.h3_resolution).toBeLessThan(9);
    expect(outline.polygon.coordinates[0].length - 1).toBeLessThanOrEqual(ISOCHRONE_MAX_VERTICES);
    expect(outline.h3_cells.every((cell) => getResolution(cell) === outline.h3_resolution)).toBe(true);
    expect(outline.h3_cells).toContain(cellToParent(latLngToCell(5.5503, -0.2076, 9), outline.h3_resolution));
  });

  const worker = path.resolve('dist/libs/routing/src/engine/isochrone-outline.worker.js');
  (existsSync(worker) ? it : it.skip)('answers the same on a worker thread (the compiled worker)', async () => {
    const outliner = new IsochroneOutliner(pathToFileURL(worker));
    const before = await ranOnThread('isochrone-outline');
    try {
      const small = samples(8, 0.01);
      const large = samples(720, 0.6, 11);
      const expected = [outlineIsochrone(small.data, small.count), outlineIsochrone(large.data, large.count)];
      const answered = await Promise.all([outliner.outline(small.data, small.count), outliner.outline(large.data, large.count)]);
      expect(answered).toEqual(expected);
      expect(await ranOnThread('isochrone-outline')).toBe(before + 2);
    } finally {
      await outliner.close();
    }
  });
  if (!existsSync(worker)) console.log(`skipped the worker-thread outline: ${worker} is not built (npm run build)`);
});
