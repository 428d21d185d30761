export {
  DATA_ENCRYPTION_KEY_FILE,
  InvalidEncryptionKeyError,
  SealedSecretError,
  SecretBox,
  type SealedSecretProblem,
  type SecretBoxConfig,
} from './secret-box.js';
export * from './data-keys/index.js';
export { ReporterHash } from './reporter-hash.js';
export { SealedFields } from './sealed-fields.js';
export { customerDataKeySubject } from './customer-data-key.js';
export { checkKeyFingerprint, EncryptionKeyMismatchError, keyFingerprint, KEY_FINGERPRINT_EVENTS, KEY_FINGERPRINT_STREAM } from './key-fingerprint.js';
