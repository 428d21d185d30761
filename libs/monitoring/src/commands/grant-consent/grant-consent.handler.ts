import { CommandHandler } from '@nestjs/cqrs';
import { command, PipelineCommand, PipelineHandler } from '../../../../platform/src/index.js';
import { consentDecider, consentStream, type ConsentEvent, type ConsentState, type GrantConsent } from '../../domain/consent.js';

/** POST /v2/consent/grant. */
export const grantConsent = command<GrantConsent, ConsentState, ConsentEvent>({
  name: 'monitoring.grant-consent',
  stream: (grant) => consentStream(grant.account_id, grant.customer_id),
  decider: consentDecider,
  // Idempotent: a grant identical to the standing one records nothing, so identical grants sent
  // at once converge after one retry on fresh state (issue 10: twenty at once all answer 200).
  onConflict: { retry: 5 },
});

export class GrantConsentCommand extends PipelineCommand<GrantConsent, ConsentState, ConsentEvent> {}

@CommandHandler(GrantConsentCommand)
export class GrantConsentHandler extends PipelineHandler<GrantConsent, ConsentState, ConsentEvent> {
  protected readonly definition = grantConsent;
}
