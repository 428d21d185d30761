import { CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { command, PipelineCommand, PipelineHandler } from '../../../../platform/src/index.js';
import { ConsentProofCodec } from '../../consent-record/consent-proof-codec.js';
import { consentDecider, consentStream, type ConsentEvent, type ConsentState, type RevokeConsent } from '../../domain/consent.js';
import { locationDecider, locationStream, type LocationCommand, type LocationEvent, type LocationState } from '../../domain/location.js';
import { CustomerPseudonyms } from '../../location-stream/customer-pseudonyms.js';
import { LocationCodec } from '../../location-stream/location-codec.js';
import { RevokeConsentCommand, type ConsentRevocation } from '../../public/consent-commands.js';
import { CONSENTS_PROJECTION } from '../../consent-record/consent-record.read-model.js';
import { ConsentReceipts, consentIdOf } from '../../receipts/consent-receipts.js';

type StopCollection = Extract<LocationCommand, { type: 'StopCollection' }>;

export const revokeConsent = command<RevokeConsent, ConsentState, ConsentEvent, { pseudonyms: CustomerPseudonyms; proofs: ConsentProofCodec }>({
  name: 'monitoring.revoke-consent',
  stream: (revoke) => consentStream(revoke.account_id, revoke.customer_id),
  decider: consentDecider,
  inject: { pseudonyms: CustomerPseudonyms, proofs: ConsentProofCodec },
  // The grant's proof opens through it: the revoke's receipt states it (docs/adr/0055).
  codec: ({ proofs }) => proofs,
  // The consents read model finds the record by the customer's pseudonym (docs/adr/0032, "Listing").
  async prepare(revoke, _loaded, { pseudonyms }) {
    return { ...revoke, pseudonym: pseudonyms.of(revoke.account_id, revoke.customer_id) };
  },
  // A retry re-decides on fresh state: a revoke that raced another answers CONSENT_NOT_GRANTED, as it would have after it.
  onConflict: { retry: 3 },
  // GET /v2/consents shows the revocation it answered.
  awaits: [CONSENTS_PROJECTION],
});

/** The CollectionStopped marker in the customer's location stream (ADR 12, "Ordering against a revoke"). */
export const stopCollection = command<StopCollection, LocationState, LocationEvent, { codec: LocationCodec }>({
  name: 'monitoring.stop-collection',
  stream: (stop) => locationStream(stop.account_id, stop.customer_id),
  decider: locationDecider,
  inject: { codec: LocationCodec },
  codec: ({ codec }) => codec,
  // Each conflict is a ping batch that read the consent before the revoke and appended first. They are
  // few and finite (every later batch reads the revoke and is refused), and the marker must land.
  onConflict: { retry: 50 },
});

export class RecordRevocationCommand extends PipelineCommand<RevokeConsent, ConsentState, ConsentEvent> {}

@CommandHandler(RecordRevocationCommand)
export class RecordRevocationHandler extends PipelineHandler<RevokeConsent, ConsentState, ConsentEvent, { pseudonyms: CustomerPseudonyms; proofs: ConsentProofCodec }> {
  protected readonly definition = revokeConsent;
}

export class StopCollectionCommand extends PipelineCommand<StopCollection, LocationState, LocationEvent> {}

@CommandHandler(StopCollectionCommand)
export class StopCollectionHandler extends PipelineHandler<StopCollection, LocationState, LocationEvent, { codec: LocationCodec }> {
  protected readonly definition = stopCollection;
}

/**
 * The process: revoke, then stop collection (interface.md, "Consent states": future
 * collection stops), then sign the revocation's receipt (docs/adr/0064). The answer
 * waits for the CollectionStopped marker in the location stream: once it is given,
 * no ping append that read the old consent can succeed, because such an append
 * expects a revision from before the marker (ADR 12).
 */
@CommandHandler(RevokeConsentCommand)
export class RevokeConsentHandler implements ICommandHandler<RevokeConsentCommand, ConsentRevocation> {
  constructor(
    private readonly commands: CommandBus,
    private readonly receipts: ConsentReceipts,
  ) {}

  async execute({ accountId, customerId }: RevokeConsentCommand): Promise<ConsentRevocation> {
    const { state } = await this.commands.execute(new RecordRevocationCommand({ type: 'RevokeConsent', account_id: accountId, customer_id: customerId }));
    if (state.status !== 'revoked') throw new Error('a revoke left the consent not revoked');
    await this.commands.execute(new StopCollectionCommand({ type: 'StopCollection', account_id: accountId, customer_id: customerId }));
    const receipt = await this.receipts.issue({ accountId, customerId, state, event: 'revoked' });
    return { state, consent_id: consentIdOf(accountId, customerId, state), receipt };
  }
}
