import { CommandHandler } from '@nestjs/cqrs';
import { command, PipelineCommand, PipelineHandler } from '../../../../platform/src/index.js';
import { ConsentRecordSealing } from '../../consent-record/consent-record-sealing.js';
import { consentDecider, consentStream, type ConsentEvent, type ConsentState, type SealConsentRecord } from '../../domain/consent.js';
import { consentIdOf } from '../../receipts/consent-receipts.js';

/**
 * The backfill of one consent stream whose standing grant was stored before
 * records were sealed (docs/adr/0032, "Listing"): its ConsentRecordSealed.
 * A record already erased gets no key (creating one would hand an erased
 * customer's id a key again): it is listed with `customer_id: null`.
 */
export const sealConsentRecord = command<SealConsentRecord, ConsentState, ConsentEvent, { records: ConsentRecordSealing }>({
  name: 'monitoring.seal-consent-record',
  stream: (seal) => consentStream(seal.account_id, seal.customer_id),
  decider: consentDecider,
  inject: { records: ConsentRecordSealing },
  async prepare(input, { state }, { records }) {
    if (state.status === 'none' || state.record_sealed) return input;
    const { account_id, customer_id } = input;
    const erased = state.status === 'revoked' && state.erased !== undefined;
    const seal = erased ? { pseudonym: records.pseudonymOf(account_id, customer_id), customer_sealed: null } : await records.seal(account_id, customer_id);
    return { ...input, consent_id: consentIdOf(account_id, customer_id, state), seal };
  },
  // Idempotent: a retry on fresh state finds the record sealed (by a grant, or another process's backfill) and records nothing.
  onConflict: { retry: 5 },
});

export class SealConsentRecordCommand extends PipelineCommand<SealConsentRecord, ConsentState, ConsentEvent> {}

@CommandHandler(SealConsentRecordCommand)
export class SealConsentRecordHandler extends PipelineHandler<SealConsentRecord, ConsentState, ConsentEvent, { records: ConsentRecordSealing }> {
  protected readonly definition = sealConsentRecord;
}
