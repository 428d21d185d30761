import { randomUUID } from 'node:crypto';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { ACCOUNT_DIRECTORY, type AccountDirectory } from '../../../../accounts/src/index.js';
import { command, CommandPipeline, EVENT_STORE, type DeclaredCommandHandler, type EventStore } from '../../../../platform/src/index.js';
import { ConsentProofCodec } from '../../consent-record/consent-proof-codec.js';
import { ConsentRecordSealing } from '../../consent-record/consent-record-sealing.js';
import { consentDecider, consentStream, type ConsentEvent, type ConsentState, type GrantConsent } from '../../domain/consent.js';
import { resolveNotice } from '../../domain/consent-notice.js';
import { CONSENTS_PROJECTION } from '../../consent-record/consent-record.read-model.js';
import { ConsentNoticeRegistry } from '../../consent-notices/consent-notice-registry.js';
import { GrantConsentCommand, type ConsentGrant } from '../../public/consent-commands.js';
import { ConsentReceipts, consentIdOf } from '../../receipts/consent-receipts.js';
import { accountOpenedAt } from './account-openings.js';

interface GrantDeps {
  records: ConsentRecordSealing;
  /** Seals the proof reference under the record key (docs/adr/0055). */
  proofs: ConsentProofCodec;
  notices: ConsentNoticeRegistry;
  /** Absent where no accounts context runs (adapter specs, benches): no capture-time floor there. */
  directory?: AccountDirectory;
  events?: EventStore;
}

/** POST /v2/consent/grant. */
export const grantConsent = command<GrantConsent, ConsentState, ConsentEvent, GrantDeps>({
  name: 'monitoring.grant-consent',
  stream: (grant) => consentStream(grant.account_id, grant.customer_id),
  decider: consentDecider,
  inject: { records: ConsentRecordSealing, proofs: ConsentProofCodec, notices: ConsentNoticeRegistry, directory: ACCOUNT_DIRECTORY, events: EVENT_STORE },
  codec: ({ proofs }) => proofs,
  // The grant names its record by pseudonym and seals the customer id under the customer's record key
  // (docs/adr/0032, "Listing"): the consents read model lists it without holding the id. The notice the
  // caller named is resolved against the account's registry, and the account's opening bounds the capture
  // time from below (docs/adr/0059).
  async prepare(grant, _loaded, { records, notices, directory, events }) {
    const { notice_ref, ...rest } = grant;
    const notice = notice_ref ? resolveNotice(notice_ref, await notices.of(grant.account_id)) : grant.notice;
    const openedAt = grant.captured_at !== undefined ? await accountOpenedAt(directory, events, grant.account_id) : undefined;
    return {
      ...rest,
      ...(notice ? { notice } : {}),
      ...(openedAt !== undefined ? { account_opened_at: openedAt } : {}),
      seal: await records.seal(grant.account_id, grant.customer_id),
    };
  },
  // Idempotent: a grant identical to the standing one records nothing, so identical grants sent
  // at once converge after one retry on fresh state (issue 10: twenty at once all answer 200).
  onConflict: { retry: 5 },
  // GET /v2/consents lists the grant it answered.
  awaits: [CONSENTS_PROJECTION],
});

/**
 * Records the grant through its declaration, then signs its receipt
 * (docs/adr/0064): whoever dispatches GrantConsentCommand (the HTTP door, an
 * operator command, a process handler) gets the receipt with the consent.
 */
@CommandHandler(GrantConsentCommand)
export class GrantConsentHandler implements ICommandHandler<GrantConsentCommand, ConsentGrant>, DeclaredCommandHandler {
  constructor(
    private readonly pipeline: CommandPipeline,
    private readonly receipts: ConsentReceipts,
  ) {}

  declaration() {
    return grantConsent;
  }

  async execute({ input }: GrantConsentCommand): Promise<ConsentGrant> {
    const { state } = await this.pipeline.run(grantConsent, { ...input, consent_id: input.consent_id ?? `cr_${randomUUID().replaceAll('-', '')}` });
    if (state.status !== 'granted') throw new Error('a grant left the consent not granted');
    const receipt = await this.receipts.issue({ accountId: input.account_id, customerId: input.customer_id, state, event: 'granted' });
    return { state, consent_id: consentIdOf(input.account_id, input.customer_id, state), receipt };
  }
}
