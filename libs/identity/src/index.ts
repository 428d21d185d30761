export * from './domain/certificates.js';
export * from './domain/delivery.js';
export * from './domain/errors.js';
export * from './domain/fraud.js';
export * from './domain/kyc.js';
export * from './domain/proximity.js';
export * from './domain/signing-keys.js';
export * from './domain/verification.js';
export * from './event-types.js';
export { FRAUD_SIGNALS, type FraudSignals } from './fraud/fraud-signals.port.js';
export * from './fraud/identity-signals.read-model.js';
export { LOCATION_EVIDENCE, type LocationEvidence, type RecordedEvidence } from './evidence/location-evidence.port.js';
export { IdentityNotifications, deliveryConfirmedPayload } from './notifications/identity-notifications.js';
export { CertificateSigner } from './signing/certificate-signer.js';
export { newSigningKey } from './signing/signing-key-material.js';
export { SigningKeyRing, type ServedJwk } from './signing/signing-key-ring.js';
export { rotateSigningKeysFromCli } from './commands/rotate-signing-keys/rotate-signing-keys.handler.js';
export { IdentityModule, IdentityNotificationsModule } from './identity.module.js';
export { identityManifest } from './manifest.js';
// The KYC address verification, for the banking context's scheduled re-verifications (run through the command pipeline).
export { VerifyKycCommand, type VerifyKyc } from './commands/verify-kyc/verify-kyc.handler.js';
// What this context brings to the apps (apps/shared/contexts.ts).
export { identityContext } from './context.js';
