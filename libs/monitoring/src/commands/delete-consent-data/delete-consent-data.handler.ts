import { Inject } from '@nestjs/common';
import { CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { command, CommandPipeline, EVENT_STORE, PipelineCommand, PipelineHandler, StreamNotFoundError, type EventStore } from '../../../../platform/src/index.js';
import { ConsentProofCodec } from '../../consent-record/consent-proof-codec.js';
import { ConsentRecordSealing } from '../../consent-record/consent-record-sealing.js';
import { assertDataDeletable, consentDecider, consentStream, type ConsentEvent, type ConsentState, type RecordErasure } from '../../domain/consent.js';
import { locationStream } from '../../domain/location.js';
import { CustomerPseudonyms } from '../../location-stream/customer-pseudonyms.js';
import { DeleteConsentDataCommand, type ConsentErasure } from '../../public/consent-commands.js';
import { LocationCaches } from '../../location-stream/location-caches.js';
import { LocationSealing } from '../../location-stream/location-sealing.js';
import { readConsent } from '../../consent-record/read-consent.js';
import { DRIFT_STATE_PROJECTION } from '../../drift/drift-state.read-model.js';
import { CONSENTS_PROJECTION } from '../../consent-record/consent-record.read-model.js';
import { ConsentReceipts, consentIdOf } from '../../receipts/consent-receipts.js';

/** The erasure record, appended last: it claims what the steps before it did. */
export const recordErasure = command<RecordErasure, ConsentState, ConsentEvent, { proofs: ConsentProofCodec }>({
  name: 'monitoring.record-erasure',
  stream: (erasure) => consentStream(erasure.account_id, erasure.customer_id),
  decider: consentDecider,
  // The grant opens through it (its proof gone with the record key this erasure destroyed first).
  inject: { proofs: ConsentProofCodec },
  codec: ({ proofs }) => proofs,
  // Idempotent: an erasure is recorded once per revoke, so a retry on fresh state answers the
  // record another erasure of the same customer wrote first (issue 10: concurrent delete-data).
  onConflict: { retry: 5 },
  // The drift read model deletes the customer's document on the record: GET /v2/monitoring/drift
  // must show nothing once the erasure is acknowledged; the consents read model drops the sealed id.
  awaits: [DRIFT_STATE_PROJECTION, CONSENTS_PROJECTION],
});

export class RecordErasureCommand extends PipelineCommand<RecordErasure, ConsentState, ConsentEvent> {}

@CommandHandler(RecordErasureCommand)
export class RecordErasureHandler extends PipelineHandler<RecordErasure, ConsentState, ConsentEvent, { proofs: ConsentProofCodec }> {
  protected readonly definition = recordErasure;
}

/**
 * POST /v2/consent/delete-data (interface.md, "Consent states"): a revoked
 * customer's pings, zone, drift and geofence events are erased immediately,
 * by crypto-shredding (ADR 12):
 * 1. the consent must be revoked (400 CONSENT_NOT_REVOKED otherwise);
 * 2. the customer's data keys are destroyed (location, and the consent record's
 *    that seals their id in GET /v2/consents): from here on every stored copy is noise;
 * 3. the location stream is deleted;
 * 4. the caches built from it (ping-id index, snapshots) are purged;
 * 5. CustomerDataErased (who, when, how many events; no location) is
 *    recorded, and the answer waits until the drift read model has dropped
 *    the customer;
 * 6. the erasure's receipt is signed (docs/adr/0064).
 * Every step is idempotent, so repeating the request finishes an erasure a
 * crash stopped half way, and concurrent requests all answer the one record
 * (issue 10). The consent history stays (its proof reference sealed under the
 * record key, so unreadable from step 2 on); what other contexts sealed under
 * the customer's data key goes with it at step 2 (identity's fixes, ADR 54;
 * banking's loan zones, ADR 55), and their read models and the webhook
 * deliveries react to the record (docs/guides/monitoring.md, "What survives
 * erasure"). KYC verifications and certificates stay as decisions.
 */
@CommandHandler(DeleteConsentDataCommand)
export class DeleteConsentDataHandler implements ICommandHandler<DeleteConsentDataCommand, ConsentErasure> {
  /**
   * Erasures under way in this process, by customer: a concurrent request
   * joins the one running rather than racing it, so all of them answer the
   * count of events the stream held (a racer that found the stream already
   * deleted would count none). Across processes the record's idempotence
   * still gives every caller the same answer.
   */
  private readonly running = new Map<string, Promise<ConsentErasure>>();

  constructor(
    private readonly bus: CommandBus,
    private readonly commands: CommandPipeline,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    private readonly sealing: LocationSealing,
    private readonly caches: LocationCaches,
    private readonly pseudonyms: CustomerPseudonyms,
    private readonly records: ConsentRecordSealing,
    private readonly receipts: ConsentReceipts,
  ) {}

  execute({ accountId, customerId, erasedBy }: DeleteConsentDataCommand): Promise<ConsentErasure> {
    const id = JSON.stringify([accountId, customerId]);
    let erasure = this.running.get(id);
    if (!erasure) {
      erasure = this.run(accountId, customerId, erasedBy).finally(() => this.running.delete(id));
      this.running.set(id, erasure);
    }
    return erasure;
  }

  private async run(accountId: string, customerId: string, erasedBy: string): Promise<ConsentErasure> {
    assertDataDeletable(await readConsent(this.commands, accountId, customerId), customerId);
    await this.sealing.shred(accountId, customerId);
    await this.records.shred(accountId, customerId);
    const eventsErased = await this.deleteLocationStream(locationStream(accountId, customerId));
    const pseudonym = this.pseudonyms.of(accountId, customerId);
    await this.caches.purge(pseudonym);
    const result = await this.bus.execute(
      new RecordErasureCommand({ type: 'RecordErasure', account_id: accountId, customer_id: customerId, erased_by: erasedBy, events_erased: eventsErased, pseudonym }),
    );
    // Recorded before (a repeat): wait for the read models to show that record, as its first erasure did.
    if (result.position === undefined) await this.commands.settle(recordErasure, await this.lastPosition(consentStream(accountId, customerId)));
    const state = assertDataDeletable(result.state, customerId);
    if (!state.erased) throw new Error('an erasure left no record');
    const receipt = await this.receipts.issue({ accountId, customerId, state, event: 'erased' });
    return { erased_at: state.erased.at, events_erased: state.erased.events_erased, consent: state, consent_id: consentIdOf(accountId, customerId, state), receipt };
  }

  /** Answers how many events the stream held; none when it is gone already. */
  private async deleteLocationStream(stream: string): Promise<number> {
    try {
      const [last] = await this.events.readStream(stream, { direction: 'backwards', maxCount: 1 });
      await this.events.deleteStream(stream);
      return last ? Number(last.revision) + 1 : 0;
    } catch (error) {
      if (error instanceof StreamNotFoundError) return 0;
      throw error;
    }
  }

  private async lastPosition(stream: string): Promise<bigint> {
    const [last] = await this.events.readStream(stream, { direction: 'backwards', maxCount: 1 });
    return last.position;
  }
}
