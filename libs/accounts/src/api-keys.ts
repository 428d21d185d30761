import { randomUUID } from 'node:crypto';
import { appendDecided, ConcurrencyError, DomainError, loadStream, StreamNotFoundError, type Clock, type EventRegistry, type EventStore } from '../../platform/src/index.js';
import { generateApiKey, hashKey, keyPrefix } from './credentials/index.js';
import type { KeyDirectory, KeyRecord } from './authentication/key-directory.js';
import {
  apiKeyStream,
  decideApiKey,
  evolveApiKey,
  initialApiKeyState,
  KeyNotActiveError,
  type ApiKeyCommand,
  type ApiKeyEvent,
  type ApiKeyIssued,
} from './domain/api-key.js';

/** Another request rotated or revoked the same key first. */
export class KeyChangedConcurrentlyError extends DomainError {
  readonly code = 'KEY_CHANGED';
  readonly status = 409;
  constructor() {
    super('the key was rotated or revoked by another request; use the key you now hold');
  }
}

export type NewKey = Omit<ApiKeyIssued['data'], 'issued_at' | 'key_id' | 'key_hash' | 'key_prefix'>;

/**
 * Loads a key's stream, decides, appends with the expected revision, and waits
 * until this process's key directory has the result (read your own write).
 */
export class ApiKeys {
  constructor(
    private readonly events: EventStore,
    private readonly registry: EventRegistry,
    private readonly directory: KeyDirectory,
    private readonly clock: Clock,
    private readonly waitMs: number,
  ) {}

  /** Issues a fresh key; answers the full key (shown once) and its record. */
  async issue(details: NewKey): Promise<{ key: string; record: KeyRecord }> {
    const key = generateApiKey();
    const keyId = randomUUID();
    const data = { ...details, key_id: keyId, key_hash: hashKey(key), key_prefix: keyPrefix(key) };
    const position = await this.execute(keyId, { type: 'IssueApiKey', data, now: this.clock.now() });
    await this.directory.waitFor(position, this.waitMs);
    const record = this.directory.byKeyId(keyId);
    if (!record) throw new Error(`issued key ${keyId} is missing from the directory`);
    return { key, record };
  }

  /** Revokes at once: when this resolves, no request with the key is accepted by this process. */
  async revoke(keyId: string, reason: 'rotated' | 'deleted' | 'operator', replacedBy: string | null = null): Promise<void> {
    const position = await this.execute(keyId, { type: 'RevokeApiKey', data: { key_id: keyId, reason, replaced_by: replacedBy }, now: this.clock.now() });
    await this.directory.waitFor(position, this.waitMs);
  }

  /**
   * Rotation revokes the old key first: if the process dies between the two
   * appends the caller has no working key (the operator can issue one), which
   * is safer than two live keys. A concurrent rotation of the same key loses
   * with 409 KEY_CHANGED and issues nothing.
   */
  async rotate(current: KeyRecord): Promise<{ key: string; record: KeyRecord }> {
    const replacementId = randomUUID();
    await this.revoke(current.key_id, 'rotated', replacementId);
    const key = generateApiKey();
    const data = {
      key_id: replacementId,
      key_hash: hashKey(key),
      key_prefix: keyPrefix(key),
      kind: current.kind,
      account_id: current.account_id,
      name: current.name,
      email: current.email,
      tier: this.directory.tierOf(current),
      // A rotated personal token keeps its expiry: rotation must not extend a session.
      expires_at: current.expires_at,
      rotated_from: current.key_id,
      user_id: current.user_id,
    };
    const position = await this.execute(replacementId, { type: 'IssueApiKey', data, now: this.clock.now() });
    await this.directory.waitFor(position, this.waitMs);
    return { key, record: this.directory.byKeyId(replacementId)! };
  }

  /** Whether the key's stream still ends with its issue (one backwards read of one event). */
  async isLive(keyId: string): Promise<boolean> {
    try {
      const [last] = await this.events.readStream(apiKeyStream(keyId), { direction: 'backwards', maxCount: 1 });
      return last?.type === 'ApiKeyIssued';
    } catch (error) {
      if (error instanceof StreamNotFoundError) return false;
      throw error;
    }
  }

  private async execute(keyId: string, command: ApiKeyCommand): Promise<bigint> {
    const stream = apiKeyStream(keyId);
    const { state, revision } = await loadStream(this.events, this.registry, stream, evolveApiKey, initialApiKeyState);
    let decided: ApiKeyEvent[];
    try {
      decided = decideApiKey(command, state);
    } catch (error) {
      if (error instanceof KeyNotActiveError) throw new KeyChangedConcurrentlyError();
      throw error;
    }
    try {
      const result = await appendDecided(this.events, this.registry, stream, decided, revision);
      return result.position;
    } catch (error) {
      if (error instanceof ConcurrencyError) throw new KeyChangedConcurrentlyError();
      throw error;
    }
  }
}
