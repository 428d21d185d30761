import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, command, CommandPipeline, type Clock } from '../../../../platform/src/index.js';
import { collectsLocation, CUSTOMER_ID } from '../../domain/consent.js';
import {
  checkPing,
  ConsentRequiredError,
  locationDecider,
  locationStream,
  pingOutcomes,
  type IndexedPing,
  type LocationEvent,
  type LocationState,
  type PingOutcome,
  type RecordPings,
} from '../../domain/location.js';
import { FenceIndex } from '../../geofences/fence-index.js';
import { CustomerPseudonyms } from '../../location-stream/customer-pseudonyms.js';
import { LocationCaches } from '../../location-stream/location-caches.js';
import { LocationCodec } from '../../location-stream/location-codec.js';
import { LocationSealing } from '../../location-stream/location-sealing.js';
import { readConsent } from '../../queries/get-consent-status/get-consent-status.handler.js';
import { DRIFT_STATE_PROJECTION } from '../../queries/get-drift/drift-state.read-model.js';

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
 * per customer (a request may hold pings of a thousand customers).
 */
const recordCustomerPings = { ...recordPings, awaits: [] };

/** Customers of one request processed at once. */
const CUSTOMER_CONCURRENCY = 8;

export interface PingsResult {
  /** One per ping, in request order. */
  outcomes: PingOutcome[];
  /** Global position of the last event written. */
  position?: bigint;
}

/**
 * POST /v2/monitoring/pings: validates each ping on its own, runs
 * `recordPings` per customer (several customers at once), and answers one
 * outcome per ping once the drift read model shows them.
 */
@Injectable()
export class RecordPingsHandler {
  constructor(
    private readonly commands: CommandPipeline,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async record(accountId: string, raw: readonly Record<string, unknown>[]): Promise<PingsResult> {
    const result = await this.ingest(accountId, raw);
    if (result.position !== undefined) await this.commands.settle(recordPings, result.position);
    return result;
  }

  /** As `record`, without waiting for read models (the ping benchmark measures ingestion alone). */
  async ingest(accountId: string, raw: readonly Record<string, unknown>[]): Promise<PingsResult> {
    const now = this.clock.now();
    const outcomes: PingOutcome[] = [];
    const byCustomer = new Map<string, IndexedPing[]>();
    raw.forEach((ping, index) => {
      const customerId = ping.customer_id;
      if (typeof customerId !== 'string' || !CUSTOMER_ID.test(customerId)) {
        outcomes.push({ index, status: 'refused', error: { code: 'INVALID_PARAM', field: 'customer_id', message: 'customer_id must be 1-128 characters of A-Z, a-z, 0-9, ".", "_", ":" and "-"' } });
        return;
      }
      const checked = checkPing(ping, now);
      if (!checked.ok) {
        outcomes.push({ index, status: 'refused', error: checked.error });
        return;
      }
      const group = byCustomer.get(customerId) ?? [];
      group.push({ index, ...checked.ping });
      byCustomer.set(customerId, group);
    });
    let position: bigint | undefined;
    const groups = [...byCustomer.entries()];
    for (let start = 0; start < groups.length; start += CUSTOMER_CONCURRENCY) {
      const results = await Promise.all(groups.slice(start, start + CUSTOMER_CONCURRENCY).map(([customerId, pings]) => this.recordCustomer(accountId, customerId, pings)));
      for (const result of results) {
        outcomes.push(...result.outcomes);
        if (result.position !== undefined && (position === undefined || result.position > position)) position = result.position;
      }
    }
    outcomes.sort((a, b) => a.index - b.index);
    return { outcomes, position };
  }

  private async recordCustomer(accountId: string, customerId: string, pings: IndexedPing[]): Promise<PingsResult> {
    try {
      const result = await this.commands.run(recordCustomerPings, { type: 'RecordPings', account_id: accountId, customer_id: customerId, pings });
      const { prepared } = result.command;
      if (!prepared?.collecting) throw new Error('pings were decided without a confirmed consent');
      return { outcomes: pingOutcomes(prepared.pings, result.previous, result.events), position: result.position };
    } catch (error) {
      if (!(error instanceof ConsentRequiredError)) throw error;
      // Refused whole, and nothing of them stored: each ping reports it.
      return { outcomes: pings.map(({ index }) => ({ index, status: 'refused' as const, error: { code: error.code, message: error.message } })) };
    }
  }
}
