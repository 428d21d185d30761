import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { getResolution, latLngToCell } from 'h3-js';
import { hexCodeFromCell } from '../../../../addressing/src/index.js';
import { collectionName, READ_STORE, type ReadCollection, type ReadStore } from '../../../../platform/src/index.js';
import { hopsBetween, locationStream, type LocationEvent, type PingRecorded, type ZoneRegistered } from '../../domain/location.js';
import { CustomerPseudonyms } from '../../location-stream/customer-pseudonyms.js';
import { LocationSealing } from '../../location-stream/location-sealing.js';
import { GetDriftQuery, type DriftView } from '../../drift/drift.query.js';
import { DRIFT_STATE_PROJECTION, DRIFT_STATE_VERSION, type DriftStateDoc, type SealedPart } from '../../drift/drift-state.read-model.js';

/** The drift_state read model, its sealed parts opened with the customer's key. */
@QueryHandler(GetDriftQuery)
export class GetDriftHandler implements IQueryHandler<GetDriftQuery> {
  private collection?: Promise<ReadCollection<DriftStateDoc>>;

  constructor(
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    private readonly sealing: LocationSealing,
    private readonly pseudonyms: CustomerPseudonyms,
  ) {}

  async execute({ accountId, customerId }: GetDriftQuery): Promise<DriftView> {
    const collection = await (this.collection ??= this.readStore.collection<DriftStateDoc>(collectionName({ name: DRIFT_STATE_PROJECTION, version: DRIFT_STATE_VERSION })));
    const doc = await collection.get(this.pseudonyms.of(accountId, customerId));
    const none: DriftView = { customer_id: customerId, status: 'unmonitored', home_hex: null, tolerance_hops: null, current_hex: null, distance_hops: null, since: null, last_ping_at: null };
    if (!doc) return none;
    const open = async <E extends LocationEvent>(type: E['type'], part: SealedPart | null) =>
      part ? ((await this.sealing.open({ type, streamName: locationStream(accountId, customerId), data: { account_id: accountId, customer_id: customerId, ...part } })) as E | undefined) : undefined;
    const zone = await open<ZoneRegistered>('ZoneRegistered', doc.zone && { key_id: doc.zone.key_id, sealed: doc.zone.sealed });
    const ping = await open<PingRecorded>('PingRecorded', doc.latest_ping && { key_id: doc.latest_ping.key_id, sealed: doc.latest_ping.sealed });
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
}
