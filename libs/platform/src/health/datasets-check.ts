import type { DatasetStore } from '../reference/dataset-store.port.js';
import type { HealthCheck } from './readiness.js';

/**
 * "Datasets live", for GET /health/ready (docs/adr/0033): every dataset with a
 * live version has its manifest readable (the shared DATA_DIR volume is
 * mounted and whole), and with the starter pack on, at least one is live (the
 * first-start import did its work; while it runs, readiness is held anyway).
 */
export function datasetsCheck(store: DatasetStore, starterData: boolean): HealthCheck {
  return {
    name: 'datasets',
    readyOnly: true,
    ping: async () => {
      const live = (await store.list()).filter((listing) => listing.current);
      for (const listing of live) if (!(await store.current(listing.dataset))) throw new Error(`${listing.dataset}: live version unreadable`);
      if (starterData && live.length === 0) throw new Error('no live dataset although STARTER_DATA is on');
    },
  };
}
