import { CommandHandler } from '@nestjs/cqrs';
import { command, CommandPipeline, PipelineCommand, PipelineHandler } from '../../../../platform/src/index.js';
import { collectsLocation } from '../../domain/consent.js';
import { locationDecider, locationStream, type LocationEvent, type LocationState, type RecordPings } from '../../domain/location.js';
import { FenceIndex } from '../../geofences/public/fence-index.js';
import { CustomerPseudonyms } from '../../location-stream/customer-pseudonyms.js';
import { LocationCaches } from '../../location-stream/location-caches.js';
import { LocationCodec } from '../../location-stream/location-codec.js';
import { LocationSealing } from '../../location-stream/location-sealing.js';
import { readConsent } from '../../consent-record/read-consent.js';
import { DRIFT_STATE_PROJECTION } from '../../drift/drift-state.read-model.js';

interface Deps {
  codec: LocationCodec;
  commands: CommandPipeline;
  sealing: LocationSealing;
  caches: LocationCaches;
  pseudonyms: CustomerPseudonyms;
  fences: FenceIndex;
}

/**
 * One customer's pings of a request. ADR 12, "Ordering against a revoke":
 * the pipeline reads the stream (its revision) first, `prepare` reads the
 * consent after it and only then obtains the customer's key (creating it on
 * first use), and the append expects the revision read, so a ping batch that
 * saw the consent before a revoke cannot land after the revoke's marker.
 */
export const recordPings = command<RecordPings, LocationState, LocationEvent, Deps>({
  name: 'monitoring.record-pings',
  stream: (pings) => locationStream(pings.account_id, pings.customer_id),
  decider: locationDecider,
  inject: { codec: LocationCodec, commands: CommandPipeline, sealing: LocationSealing, caches: LocationCaches, pseudonyms: CustomerPseudonyms, fences: FenceIndex },
  codec: ({ codec }) => codec,
  async prepare(input, loaded, { commands, sealing, caches, pseudonyms, fences }) {
    const { account_id, customer_id } = input;
    if (!collectsLocation(await readConsent(commands, account_id, customer_id))) return { ...input, prepared: { collecting: false } };
    const key = await sealing.keyFor(account_id, customer_id);
    const pings = input.pings.map((ping) => ({
      ...ping,
      ping_id: sealing.pingId(key, ping),
      fences: fences.fencesContaining(account_id, customer_id, ping.lat, ping.lng).map(({ fence_id, fence_type, loan_id }) => ({ fence_id, fence_type, loan_id })),
    }));
    const seen = new Set(loaded.state.seen_ping_ids);
    const unseen = pings.filter((ping) => !seen.has(ping.ping_id));
    const known = await caches.known(pseudonyms.of(account_id, customer_id), unseen, loaded.state.latest?.recorded_at);
    return { ...input, prepared: { collecting: true, pings, known } };
  },
  // Pings are re-decided on fresh state: duplicates, lateness, drift and fence transitions are decided again
  // against what the other batch stored, so a retry is as good as a first attempt. Conflicts come from
  // batches for the same customer arriving together (a phone's offline backlog).
  onConflict: { retry: 20 },
  // GET /v2/monitoring/drift reads the request's own pings.
  awaits: [DRIFT_STATE_PROJECTION],
});

/**
 * `recordPings` as each customer of a request runs it: without its wait, which
 * the request makes once, for the highest position written, rather than once
 * per customer (a request may hold pings of a thousand customers;
 * record-pings.process.ts).
 */
export const recordCustomerPings: typeof recordPings = { ...recordPings, awaits: [] };

/** One customer's pings of a request, as the request's process dispatches them. */
export class RecordPingsCommand extends PipelineCommand<RecordPings, LocationState, LocationEvent> {}

/** Runs `recordCustomerPings`: a RecordPingsCommand does not wait for drift_state, the request waits once. */
@CommandHandler(RecordPingsCommand)
export class RecordPingsHandler extends PipelineHandler<RecordPings, LocationState, LocationEvent, Deps> {
  protected readonly definition = recordCustomerPings;
}
