/**
 * Per-subject data keys kept outside the event log, for crypto-shredding
 * (ADR 12): location payloads are sealed with their customer's key, and
 * destroying the key is what makes every copy of them — in the log, in freed
 * database pages, in Kafka — unreadable. Adapters: embedded (one file per key
 * under DATA_DIR) and MongoDB (`MONGODB_URL`). Both pass
 * `data-key-vault.contract.ts`.
 *
 * A subject is an opaque string (the monitoring context uses
 * `<account>:<customer>`); adapters store only its SHA-256, so the vault does
 * not list who has keys. Keys are wrapped with the platform SecretBox at rest.
 */

export interface DataKey {
  /** Random, distinct for every key ever created: a key destroyed and re-created gets a new id. */
  id: string;
  /** 32 bytes (AES-256). */
  key: Buffer;
}

export interface DataKeyVault {
  /** The subject's key, created when there is none; concurrent callers (in any process) get the same key. */
  obtain(subject: string): Promise<DataKey>;
  /** The subject's key if it exists and has this id (data sealed under a destroyed key finds nothing). */
  find(subject: string, keyId: string): Promise<DataKey | undefined>;
  /**
   * Destroys the subject's key for good; destroying an absent key is not an
   * error. Other processes may go on using a key they hold in memory for up to
   * 30 s; erasure deletes the data itself as well, so nothing is decrypted late.
   */
  destroy(subject: string): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export const DATA_KEY_VAULT = Symbol('DataKeyVault');
