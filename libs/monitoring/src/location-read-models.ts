import { TimeoutError, type ProjectionWaiter } from '../../platform/src/index.js';

/**
 * Read models fed by location streams. Commands that must be reflected at
 * once (pings, zones, erasure) wait for them by these names; the projections
 * themselves live in `projections/`.
 */
export const DRIFT_STATE_PROJECTION = 'drift_state';
export const DRIFT_STATE_VERSION = 1;
export const LOCATION_READ_MODELS: readonly string[] = [DRIFT_STATE_PROJECTION];

/** A drift_state document: one per monitored customer, location fields sealed under the customer's key (ADR 12). */
export interface DriftStateDoc {
  id: string;
  account_id: string;
  customer_id: string;
  /** ZoneRegistered's sealed data and key id; null before a zone is registered. */
  zone: { key_id: string; sealed: string; stream: string; registered_at: string } | null;
  drifting: boolean;
  /** Time of the last drift transition (or of the zone registration). */
  since: string | null;
  /** The newest ping by recorded_at, sealed as stored. */
  latest_ping: { key_id: string; sealed: string; stream: string; recorded_at: string } | null;
  [field: string]: unknown;
}

/**
 * Waits until the location read models show `position`. A command's writes
 * are stored whatever happens here, so a projection that is slow (a worker
 * restarting in the split topology) delays the answer up to the limit but
 * does not turn a stored write into an error.
 */
export async function settleLocationReadModels(waiter: ProjectionWaiter, position: bigint | undefined, timeoutMs = 5_000): Promise<void> {
  if (position === undefined) return;
  for (const model of LOCATION_READ_MODELS) {
    try {
      await waiter.waitFor(model, position, timeoutMs);
    } catch (error) {
      if (!(error instanceof TimeoutError)) throw error;
    }
  }
}
