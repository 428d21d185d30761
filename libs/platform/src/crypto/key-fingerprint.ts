import { ConcurrencyError, StreamNotFoundError } from '../event-store/errors.js';
import type { EventStore } from '../event-store/event-store.port.js';
import type { EventTypeDefinition } from '../events/event-registry.js';
import type { SecretBox } from './secret-box.js';

/**
 * Every process of a deployment must seal and open with the same
 * DATA_ENCRYPTION_KEY: a webhook secret sealed by the api under one key does
 * not open in a worker holding another. The first process to start records a
 * fingerprint of its key in the event store (the one store every process
 * shares); each later process compares its own and refuses to start on a
 * mismatch (docs/adr/0033).
 *
 * The fingerprint is HKDF-SHA256 of the key with its own purpose, truncated:
 * it identifies the key without revealing it or anything derived elsewhere.
 */
export const KEY_FINGERPRINT_STREAM = 'platform_keys-data_encryption';
export const KEY_FINGERPRINT_RECORDED = 'DataEncryptionKeyFingerprintRecorded';

export const KEY_FINGERPRINT_EVENTS: readonly EventTypeDefinition[] = [{ type: KEY_FINGERPRINT_RECORDED, version: 1 }];

export class EncryptionKeyMismatchError extends Error {
  readonly code = 'DATA_ENCRYPTION_KEY_MISMATCH';
  constructor(mine: string, recorded: string) {
    super(
      `DATA_ENCRYPTION_KEY differs from the key this deployment's first process recorded (fingerprint ${recorded}, this process ${mine}): ` +
        'give every api and worker process the same DATA_ENCRYPTION_KEY',
    );
    this.name = 'EncryptionKeyMismatchError';
  }
}

export function keyFingerprint(box: SecretBox): string {
  return box.deriveKey('key-fingerprint').subarray(0, 16).toString('base64url');
}

/** Records this key's fingerprint if none is, else checks it; throws EncryptionKeyMismatchError on a mismatch. */
export async function checkKeyFingerprint(events: EventStore, box: SecretBox, recordedBy: string, now: Date = new Date()): Promise<void> {
  const mine = keyFingerprint(box);
  for (let attempt = 0; attempt < 3; attempt++) {
    const recorded = await recordedFingerprint(events);
    if (recorded !== undefined) {
      if (recorded !== mine) throw new EncryptionKeyMismatchError(mine, recorded);
      return;
    }
    try {
      await events.append(
        KEY_FINGERPRINT_STREAM,
        [{ type: KEY_FINGERPRINT_RECORDED, data: { fingerprint: mine, recorded_by: recordedBy, recorded_at: now.toISOString() }, metadata: { schema_version: 1 } }],
        'no_stream',
      );
      return;
    } catch (error) {
      // Another process recorded one first: compare with it.
      if (!(error instanceof ConcurrencyError)) throw error;
    }
  }
  throw new Error(`could not record or read the key fingerprint in ${KEY_FINGERPRINT_STREAM}`);
}

async function recordedFingerprint(events: EventStore): Promise<string | undefined> {
  try {
    const [first] = await events.readStream(KEY_FINGERPRINT_STREAM, { maxCount: 1 });
    return typeof first?.data.fingerprint === 'string' ? first.data.fingerprint : undefined;
  } catch (error) {
    if (error instanceof StreamNotFoundError) return undefined;
    throw error;
  }
}
