import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Polygon } from '../../domain/geometry.js';
import { SERVICE_AREA_POLYGON_LIMITS, ServiceAreaTooLargeError, serviceAreaCells } from '../../domain/service-area.js';
import { ServiceAreaHandler, ServiceAreaQuery } from './service-area.handler.js';
import { ServiceAreaThread } from './service-area.thread.js';
import type { ServiceAreaAnswer } from './service-area.cells.js';
import { hexCodeFromCell } from '../../../../../addressing/src/index.js';
import { metricsRegistry } from '../../../../../platform/src/index.js';

/** Jobs the named WorkPool ran on a thread (not in process): a thread module that is not there falls back silently otherwise. */
async function ranOnThread(pool: string): Promise<number> {
  const metric = await metricsRegistry.getSingleMetric('thread_pool_jobs_total')!.get();
  return metric.values.filter((value) => value.labels.pool === pool && value.labels.outcome === 'thread').reduce((sum, value) => sum + value.value, 0);
}

const square = (side: number) => ({ type: 'Polygon', coordinates: [[[-0.3, 5.5], [-0.3 + side, 5.5], [-0.3 + side, 5.5 + side], [-0.3, 5.5 + side], [-0.3, 5.5]]] });
const rings = (side: number) => Polygon.parse(square(side), 'polygon', SERVICE_AREA_POLYGON_LIMITS).coverRings();

/** Service areas off the event loop (docs/adr/0042): the thread answers exactly what the computation in process answers. */
describe('ServiceAreaThread', () => {
  it('answers in process (the TypeScript sources) the envelope of what serviceAreaCells answers, each cell with its hex code', async () => {
    const handler = new ServiceAreaHandler(new ServiceAreaThread(null));
    const body = await handler.execute(new ServiceAreaQuery({ polygon: square(0.1), resolution: 9 }));
    const direct = serviceAreaCells(Polygon.parse(square(0.1), 'polygon', SERVICE_AREA_POLYGON_LIMITS), 9, 'overlapping', false).cells;
    expect(direct.length).toBeGreaterThan(1000);
    const envelope = JSON.parse(body.toString('utf8')) as { success: boolean; data: ServiceAreaAnswer };
    expect(envelope).toEqual({
      success: true,
      data: { resolution: 9, containment: 'overlapping', compact: false, cell_count: direct.length, cells: direct.map(hexCodeFromCell), h3_cells: direct },
    });
    // The members in the answer schema's order, as the schema writer wrote them.
    expect(Object.keys(envelope.data)).toEqual(['resolution', 'containment', 'compact', 'cell_count', 'cells', 'h3_cells']);
  });

  it('refuses an area estimated too large before asking the thread', async () => {
    // A thread that cannot start: asked, it would fail with the worker's error instead.
    const thread = new ServiceAreaThread(pathToFileURL(path.resolve('no-such-service-area.worker.js')));
    try {
      await expect(new ServiceAreaHandler(thread).execute(new ServiceAreaQuery({ polygon: square(1), resolution: 9 }))).rejects.toBeInstanceOf(ServiceAreaTooLargeError);
    } finally {
      await thread.onModuleDestroy();
    }
  });

  const worker = path.resolve('dist/libs/monitoring/src/geofences/queries/service-area/service-area.worker.js');
  (existsSync(worker) ? it : it.skip)('makes the answer on a worker thread (the compiled worker), byte for byte as in process, with the same refusals', async () => {
    const thread = new ServiceAreaThread(pathToFileURL(worker));
    const inProcess = new ServiceAreaThread(null);
    const before = await ranOnThread('service-area');
    try {
      const [overlapping, full, compacted] = await Promise.all([thread.answer(rings(0.1), 9, 'overlapping', false), thread.answer(rings(0.1), 9, 'full', false), thread.answer(rings(0.2), 9, 'center', true)]);
      expect(overlapping.equals(await inProcess.answer(rings(0.1), 9, 'overlapping', false))).toBe(true);
      expect(full.equals(await inProcess.answer(rings(0.1), 9, 'full', false))).toBe(true);
      expect(compacted.equals(await inProcess.answer(rings(0.2), 9, 'center', true))).toBe(true);
      expect(full.length).toBeLessThan(overlapping.length);
      // Past the estimate (a 0.28° square holds ~11,600 cells at res 9): refused on the thread, the same error here.
      const refused = await thread.answer(rings(0.28), 9, 'overlapping', false).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(ServiceAreaTooLargeError);
      expect((refused as ServiceAreaTooLargeError).message).toBe(((await inProcess.answer(rings(0.28), 9, 'overlapping', false).catch((error: unknown) => error)) as Error).message);
      expect(await ranOnThread('service-area')).toBe(before + 4);
    } finally {
      await thread.onModuleDestroy();
    }
  });
  if (!existsSync(worker)) console.log(`skipped the worker-thread service area: ${worker} is not built (npm run build)`);
});
