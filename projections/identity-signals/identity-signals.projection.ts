import { IDENTITY_SIGNAL_INDEXES, IDENTITY_SIGNALS_READ_MODEL, signalUpdates, VERIFICATION_EVENT_TYPES, type IdentitySignalDoc, type VerificationEvent } from '../../libs/identity/src/index.js';
import type { Projection } from '../../libs/platform/src/index.js';

/**
 * The fraud checks' signals (libs/identity/src/fraud/identity-signals.read-model.ts):
 * per account and keyed hash, the customers seen with an IP, device, phone or
 * e-mail, and the latest observations of a customer or device. Each document
 * records the position it applied, so an event delivered twice changes nothing.
 */
export const identitySignalsProjection: Projection<IdentitySignalDoc> = {
  name: IDENTITY_SIGNALS_READ_MODEL.name,
  version: IDENTITY_SIGNALS_READ_MODEL.version,
  streamPrefixes: ['identity_verification-'],
  handles: VERIFICATION_EVENT_TYPES,
  indexes: IDENTITY_SIGNAL_INDEXES,
  async apply(event, collection) {
    const verification = { type: event.type, data: event.data } as VerificationEvent;
    for (const update of signalUpdates(verification)) await collection.apply(update.id, event.position, update.evolve);
  },
};
