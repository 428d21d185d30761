import { IDENTITY_SIGNAL_INDEXES, IDENTITY_SIGNALS_READ_MODEL, signalUpdates, VERIFICATION_EVENT_TYPES, type IdentitySignalDoc, type StoredVerificationSignals } from '../../libs/identity/src/index.js';
import type { Projection } from '../../libs/platform/src/index.js';

/**
 * The fraud checks' signals (libs/identity/src/public/identity-signals.read-model.ts):
 * per account and keyed hash, the customers seen with an IP, device, phone or
 * e-mail, and the latest observations of a customer or device. Observations
 * are copied sealed as the verification event carries them (ADR 0054): this
 * projection never holds a key, and a verification stored in the clear
 * before sealing adds links only. Each document records the position it
 * applied, so an event delivered twice changes nothing.
 */
export const identitySignalsProjection: Projection<IdentitySignalDoc> = {
  name: IDENTITY_SIGNALS_READ_MODEL.name,
  version: IDENTITY_SIGNALS_READ_MODEL.version,
  streamPrefixes: ['identity_verification-'],
  handles: VERIFICATION_EVENT_TYPES,
  indexes: IDENTITY_SIGNAL_INDEXES,
  async apply(event, collection) {
    // Stored data, sealed or (before ADR 0054) clear: only its clear fields and sealed observations are read.
    const stored = event.data as unknown as StoredVerificationSignals;
    for (const update of signalUpdates(stored)) await collection.apply(update.id, event.position, update.evolve);
  },
};
