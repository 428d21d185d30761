import { Injectable } from '@nestjs/common';
import { command, CommandPipeline } from '../../../../platform/src/index.js';
import { consentDecider, consentStream, type ConsentEvent, type ConsentState, type RevokeConsent } from '../../domain/consent.js';
import { locationDecider, locationStream, type LocationCommand, type LocationEvent, type LocationState } from '../../domain/location.js';
import { LocationCodec } from '../../location-stream/location-codec.js';

type StopCollection = Extract<LocationCommand, { type: 'StopCollection' }>;

export const revokeConsent = command<RevokeConsent, ConsentState, ConsentEvent>({
  name: 'monitoring.revoke-consent',
  stream: (revoke) => consentStream(revoke.account_id, revoke.customer_id),
  decider: consentDecider,
  // A retry re-decides on fresh state: a revoke that raced another answers CONSENT_NOT_GRANTED, as it would have after it.
  onConflict: { retry: 3 },
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

/**
 * Revoke, then stop collection (interface.md, "Consent states": future
 * collection stops). The answer waits for the CollectionStopped marker in the
 * location stream: once it is given, no ping append that read the old
 * consent can succeed, because such an append expects a revision from before
 * the marker (ADR 12).
 */
@Injectable()
export class RevokeConsentHandler {
  constructor(private readonly commands: CommandPipeline) {}

  async revoke(accountId: string, customerId: string): Promise<Extract<ConsentState, { status: 'revoked' }>> {
    const { state } = await this.commands.run(revokeConsent, { type: 'RevokeConsent', account_id: accountId, customer_id: customerId });
    if (state.status !== 'revoked') throw new Error('a revoke left the consent not revoked');
    await this.commands.run(stopCollection, { type: 'StopCollection', account_id: accountId, customer_id: customerId });
    return state;
  }
}
