import { CommandHandler } from '@nestjs/cqrs';
import { command, PipelineCommand, PipelineHandler } from '../../../../platform/src/index.js';
import { ConsentRecordSealing } from '../../consent-record/consent-record-sealing.js';
import { consentDecider, consentStream, type ConsentEvent, type ConsentState, type GrantConsent } from '../../domain/consent.js';
import { CONSENTS_PROJECTION } from '../../queries/list-consents/consent-record.read-model.js';

/** POST /v2/consent/grant. */
export const grantConsent = command<GrantConsent, ConsentState, ConsentEvent, { records: ConsentRecordSealing }>({
  name: 'monitoring.grant-consent',
  stream: (grant) => consentStream(grant.account_id, grant.customer_id),
  decider: consentDecider,
  inject: { records: ConsentRecordSealing },
  // The grant names its record by pseudonym and seals the customer id under the customer's record key
  // (docs/adr/0032, "Listing"): the consents read model lists it without holding the id.
  async prepare(grant, _loaded, { records }) {
    return { ...grant, seal: await records.seal(grant.account_id, grant.customer_id) };
  },
  // Idempotent: a grant identical to the standing one records nothing, so identical grants sent
  // at once converge after one retry on fresh state (issue 10: twenty at once all answer 200).
  onConflict: { retry: 5 },
  // GET /v2/consents lists the grant it answered.
  awaits: [CONSENTS_PROJECTION],
});

export class GrantConsentCommand extends PipelineCommand<GrantConsent, ConsentState, ConsentEvent> {}

@CommandHandler(GrantConsentCommand)
export class GrantConsentHandler extends PipelineHandler<GrantConsent, ConsentState, ConsentEvent, { records: ConsentRecordSealing }> {
  protected readonly definition = grantConsent;
}
