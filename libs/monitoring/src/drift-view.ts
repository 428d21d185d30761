import { getResolution, latLngToCell } from 'h3-js';
import { hexCodeFromCell } from '../../addressing/src/index.js';
import { collectionName, type ReadCollection, type ReadStore } from '../../platform/src/index.js';
import { hopsBetween, type PingRecorded, type ZoneRegistered } from './domain/location.js';
import { DRIFT_STATE_PROJECTION, DRIFT_STATE_VERSION, type DriftStateDoc } from './location-read-models.js';
import type { LocationSealing } from './location-sealing.js';

export type DriftStatus = 'unmonitored' | 'in_zone' | 'drifting';

export interface DriftView {
  customer_id: string;
  /** `unmonitored`: no zone registered (or erased); `drifting`: out of the zone since `since`. */
  status: DriftStatus;
  home_hex: string | null;
  tolerance_hops: number | null;
  current_hex: string | null;
  distance_hops: number | null;
  since: string | null;
  last_ping_at: string | null;
}

/** GET /v2/monitoring/drift: the drift_state read model, opened with the customer's key. */
export class DriftQueries {
  private collection?: Promise<ReadCollection<DriftStateDoc>>;

  constructor(
    private readonly readStore: ReadStore,
    private readonly sealing: LocationSealing,
  ) {}

  async current(accountId: string, customerId: string): Promise<DriftView> {
    const collection = await (this.collection ??= this.readStore.collection<DriftStateDoc>(collectionName({ name: DRIFT_STATE_PROJECTION, version: DRIFT_STATE_VERSION })));
    const doc = await collection.get(`${accountId}:${customerId}`);
    const none: DriftView = { customer_id: customerId, status: 'unmonitored', home_hex: null, tolerance_hops: null, current_hex: null, distance_hops: null, since: null, last_ping_at: null };
    if (!doc) return none;
    const zone = doc.zone ? ((await this.sealing.open({ type: 'ZoneRegistered', streamName: doc.zone.stream, data: this.stored(doc, doc.zone) })) as ZoneRegistered | undefined) : undefined;
    const ping = doc.latest_ping ? ((await this.sealing.open({ type: 'PingRecorded', streamName: doc.latest_ping.stream, data: this.stored(doc, doc.latest_ping) })) as PingRecorded | undefined) : undefined;
    const last_ping_at = ping ? (doc.latest_ping?.recorded_at ?? null) : null;
    if (!zone) return { ...none, last_ping_at };
    const { home_cell, tolerance_hops } = zone.data;
    const current_cell = ping ? latLngToCell(ping.data.lat, ping.data.lng, getResolution(home_cell)) : null;
    return {
      customer_id: customerId,
      status: doc.drifting ? 'drifting' : 'in_zone',
      home_hex: hexCodeFromCell(home_cell),
      tolerance_hops,
      current_hex: current_cell ? hexCodeFromCell(current_cell) : null,
      distance_hops: current_cell ? hopsBetween(home_cell, current_cell) : null,
      since: doc.since,
      last_ping_at,
    };
  }

  private stored(doc: DriftStateDoc, part: { key_id: string; sealed: string }): Record<string, unknown> {
    return { account_id: doc.account_id, customer_id: doc.customer_id, key_id: part.key_id, sealed: part.sealed };
  }
}
