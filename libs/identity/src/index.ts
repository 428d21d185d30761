export * from './domain/certificates.js';
export * from './domain/delivery.js';
export * from './domain/evidence.js';
export * from './domain/errors.js';
export * from './domain/fraud.js';
export * from './domain/kyc.js';
export * from './domain/proximity.js';
export * from './domain/signing-keys.js';
export * from './domain/verification.js';
export * from './event-types.js';
export { FRAUD_SIGNALS, type FraudSignals } from './fraud/fraud-signals.port.js';
export {
  IDENTITY_SIGNALS_READ_MODEL,
  IDENTITY_SIGNAL_INDEXES,
  MAX_OBSERVATIONS,
  MAX_LINKED_CUSTOMERS,
  linkDocId,
  observationsDocId,
  signalUpdates,
  observationsOf,
  type LinkIdentifier,
  type ObservedSubject,
  type LinkDoc,
  type StoredObservation,
  type ObservationsDoc,
  type IdentitySignalDoc,
  type SignalUpdate,
  type SealedObservation,
  type StoredVerificationSignals,
} from './public/identity-signals.read-model.js';
export { LOCATION_EVIDENCE, type LocationEvidence, type RecordedEvidence } from './evidence/location-evidence.port.js';
export type { ServedJwk } from './public/signing-key-ring.js';
export { SIGNING_KEYS, type SigningKeys, type Jwks } from './signing/signing-keys.port.js';
export { SigningKeysModule } from './signing/signing-keys.module.js';
export { CustomerVerifications, CustomerVerificationsModule, type CustomerVerificationPage } from './public/customer-verifications.js';
export { VERIFIED_ADDRESSES, type VerifiedAddresses } from './verified-addresses.port.js';
export { IdentityModule, IdentityNotificationsModule } from './identity.module.js';
export { identityManifest } from './manifest.js';
// The KYC address verification, for the banking context's scheduled re-verifications (run through the command pipeline).
export { VerifyKycCommand, type VerifyKyc } from './public/verify-kyc.command.js';
// What this context brings to the apps (apps/shared/contexts.ts).
export { identityContext } from './context.js';
