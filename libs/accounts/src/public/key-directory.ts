import type { OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { LogFollower, type EventRegistry, type EventStore, type FollowedView, type JsonLogger, type RecordedEvent } from '../../../platform/src/index.js';
import { evolveAccount, type Account, type AccountEvent, type AccountState } from '../domain/account.js';
import type { ApiKeyIssued, ApiKeyRevoked, KeyKind, Tier } from '../domain/api-key.js';

const PREFIXES = ['api_key-', 'account-'];

export interface KeyRecord {
  key_id: string;
  key_hash: string;
  key_prefix: string;
  kind: KeyKind;
  account_id: string | null;
  /** Personal tokens only: the user the token is scoped to. */
  user_id: string | null;
  name: string;
  email: string | null;
  tier: Tier;
  issued_at: string;
  expires_at: string | null;
  /** Global position of the issuing event: the integer record id of interface.md. */
  record_id: number;
  revoked_at: string | null;
}

/**
 * Every API key and account, held in memory (keys by hash) and kept current by a catch-up
 * subscription to the `api_key-` streams: authentication is one map lookup
 * per request. It is the read model `key_directory`: commands that change a
 * key or an account declare `awaits: ['key_directory']`, so this process's
 * directory has applied their event before they answer, and a revoked key is
 * refused by this instance from the moment the revocation is acknowledged.
 */
export class KeyDirectory implements OnApplicationBootstrap, OnModuleDestroy, FollowedView {
  /** The read model name commands wait for. */
  static readonly readModel = 'key_directory';
  private readonly byHash = new Map<string, KeyRecord>();
  private readonly byId = new Map<string, KeyRecord>();
  private readonly accounts = new Map<string, AccountState>();
  /** Per key id: the revision of the last event of its stream this directory has applied. */
  private readonly revisions = new Map<string, bigint>();
  readonly follower: LogFollower;

  constructor(
    private readonly events: EventStore,
    registry: EventRegistry,
    logger?: JsonLogger,
  ) {
    this.follower = new LogFollower(events, registry, undefined, { name: 'key directory', streamPrefixes: PREFIXES, start: { from: 'beginning' }, sink: { handle: (event) => this.apply(event) } }, logger);
  }

  /**
   * Reads every key event in the log before answering, so a restarted process
   * knows every key before it serves its first request; then follows live.
   * The scan reads the whole log once at start (a persisted key projection
   * would avoid that: a follow-up).
   */
  start(): Promise<void> {
    return this.follower.start();
  }

  /** Nest starts it before the application serves its first request. */
  onApplicationBootstrap(): Promise<void> {
    return this.start();
  }

  onModuleDestroy(): Promise<void> {
    return this.follower.stop();
  }

  byKeyHash(hash: string): KeyRecord | undefined {
    return this.byHash.get(hash);
  }

  /**
   * A live key with the revision of its stream's last event applied here, read
   * together (synchronously), so the pair describes one moment of the directory.
   */
  lookup(hash: string): { record: KeyRecord; revision: bigint } | undefined {
    const record = this.byHash.get(hash);
    const revision = record && this.revisions.get(record.key_id);
    return record && revision !== undefined ? { record, revision } : undefined;
  }

  /** The store's revision of a stream now (undefined: missing or deleted): what `lookup`'s revision is compared with. */
  storeRevision(stream: string): Promise<bigint | undefined> {
    return this.events.streamRevision(stream);
  }

  byKeyId(id: string): KeyRecord | undefined {
    return this.byId.get(id);
  }

  /** The tier whose quota applies to a key: its account's (the operator may change it), or a legacy key's own. */
  tierOf(record: KeyRecord): Tier {
    return (record.account_id ? this.account(record.account_id)?.tier : undefined) ?? record.tier;
  }

  account(accountId: string): Account | undefined {
    const state = this.accounts.get(accountId);
    return state?.status === 'open' ? state.account : undefined;
  }

  waitFor(position: bigint, timeoutMs: number): Promise<void> {
    return this.follower.waitFor(position, timeoutMs);
  }

  private apply(event: RecordedEvent): void {
    if (event.streamName.startsWith('api_key-')) this.revisions.set(String(event.data.key_id), event.revision);
    if (event.type === 'ApiKeyIssued') {
      const data = event.data as ApiKeyIssued['data'];
      const record: KeyRecord = { ...data, user_id: data.user_id ?? null, record_id: Number(event.position), revoked_at: null };
      delete (record as Partial<ApiKeyIssued['data']>).rotated_from;
      this.byHash.set(data.key_hash, record);
      this.byId.set(data.key_id, record);
    } else if (event.type === 'ApiKeyRevoked') {
      const data = event.data as ApiKeyRevoked['data'];
      const record = this.byId.get(data.key_id);
      if (record) {
        record.revoked_at = data.revoked_at;
        this.byHash.delete(record.key_hash);
      }
    }
    if (event.streamName.startsWith('account-')) {
      const accountId = String(event.data.account_id);
      const next = evolveAccount(this.accounts.get(accountId) ?? { status: 'none' }, { type: event.type, data: event.data } as AccountEvent);
      this.accounts.set(accountId, next);
    }
  }
}
