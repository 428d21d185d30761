import type { OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { LogFollower, StreamNotFoundError, type EventRegistry, type EventStore, type FollowedView, type JsonLogger, type RecordedEvent } from '../../../platform/src/index.js';
import { accountStream, evolveAccount, type Account, type AccountEvent, type AccountState } from '../domain/account.js';
import { apiKeyStream, keyIdFor, type ApiKeyIssued, type ApiKeyRevoked, type KeyKind, type Tier } from '../domain/api-key.js';

const KEY_PREFIX = 'api_key-';
const ACCOUNT_PREFIX = 'account-';
const PREFIXES = [KEY_PREFIX, ACCOUNT_PREFIX];

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
 * subscription to the `api_key-` and `account-` streams: authentication is one map lookup
 * per request. It is the read model `key_directory`: commands that change a
 * key or an account declare `awaits: ['key_directory']`, so this process's
 * directory has applied their event before they answer.
 *
 * Another api process learns such a change from the log, a moment later
 * (up to the embedded store's 200 ms poll). So that every process honours it
 * once it is acknowledged (docs/adr/0057), the directory also takes a
 * stream's events straight from the store (`check`): per stream it
 * keeps the revision of the last event applied, and whichever of the follower
 * and a store read brings an event first applies it; the other skips it.
 */
export class KeyDirectory implements OnApplicationBootstrap, OnModuleDestroy, FollowedView {
  /** The read model name commands wait for. */
  static readonly readModel = 'key_directory';
  private readonly byHash = new Map<string, KeyRecord>();
  private readonly byId = new Map<string, KeyRecord>();
  private readonly accounts = new Map<string, AccountState>();
  /** Per stream (`api_key-…`, `account-…`): the revision of its last event applied here. */
  private readonly revisions = new Map<string, bigint>();
  /** Per presented key (one object per request): its one check against the store, shared by the throttle and the guard. */
  private readonly checks = new WeakMap<object, Promise<KeyRecord | undefined>>();
  readonly follower: LogFollower;

  constructor(
    private readonly events: EventStore,
    private readonly registry: EventRegistry,
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
   * The live record of a presented key as the store has it now, or undefined
   * (no such key, or revoked); its expiry is the caller's to check. Checked once per presented key (one object per request): the per-IP
   * throttle asks first and the guard reuses the answer, so a request makes
   * one check whoever asks.
   *
   * A key this directory holds is confirmed against the store (`confirm`). A
   * key it does not hold may have been issued through another api process a
   * moment ago, its event not yet brought by the follower: its id is derived
   * from its hash (`keyIdFor`), so its stream is read by name, then its
   * account's, and what they hold is applied here. A key that exists nowhere
   * costs that one read of a missing stream, no more than a live key's check.
   */
  check(key: { hash: string }): Promise<KeyRecord | undefined> {
    let checked = this.checks.get(key);
    if (!checked) {
      checked = this.checkInStore(key.hash);
      this.checks.set(key, checked);
    }
    return checked;
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

  private async checkInStore(hash: string): Promise<KeyRecord | undefined> {
    const known = this.byHash.get(hash);
    if (!known) {
      await this.refresh(apiKeyStream(keyIdFor(hash)));
      const found = this.byHash.get(hash);
      if (found?.account_id) await this.refresh(accountStream(found.account_id));
    } else if (!(await this.confirm(known))) {
      return undefined;
    }
    // A revocation applied meanwhile takes the key out of the map (and marks the record).
    const record = this.byHash.get(hash);
    return record && record.revoked_at === null ? record : undefined;
  }

  /**
   * Brings a key this directory holds up to the store: its stream's and its
   * account's revisions are read (at once), and a stream the store holds more
   * of (a revocation, a tier change, banking, an allowlist or rate overrides
   * through another process) is read and applied. When both are the revisions
   * applied here, nothing more is read. False when the key's stream is gone.
   */
  private async confirm(record: KeyRecord): Promise<boolean> {
    const keyStream = apiKeyStream(record.key_id);
    const ofAccount = record.account_id ? accountStream(record.account_id) : undefined;
    const [keyRevision, accountRevision] = await Promise.all([this.events.streamRevision(keyStream), ofAccount ? this.events.streamRevision(ofAccount) : undefined]);
    if (keyRevision === undefined) return false;
    const behind: Array<Promise<void>> = [];
    if (keyRevision !== this.revisions.get(keyStream)) behind.push(this.refresh(keyStream));
    if (ofAccount && accountRevision !== undefined && accountRevision !== this.revisions.get(ofAccount)) behind.push(this.refresh(ofAccount));
    await Promise.all(behind);
    return true;
  }

  /** Applies the stream's events after the last one applied here, read from the store; nothing for a missing stream. */
  private async refresh(stream: string): Promise<void> {
    const known = this.revisions.get(stream);
    let events: RecordedEvent[];
    try {
      events = await this.events.readStream(stream, { fromRevision: known === undefined ? 0n : known + 1n });
    } catch (error) {
      if (error instanceof StreamNotFoundError) return;
      throw error;
    }
    for (const event of events) this.apply(this.registry.upcast(event));
  }

  /** One event of a key's or an account's stream, from the follower or a store read: each is applied once, in stream order. */
  private apply(event: RecordedEvent): void {
    const stream = event.streamName;
    const applied = this.revisions.get(stream);
    if (applied !== undefined && event.revision <= applied) return;
    if (stream.startsWith(KEY_PREFIX)) this.applyToKey(event);
    else if (stream.startsWith(ACCOUNT_PREFIX)) {
      const accountId = String(event.data.account_id);
      this.accounts.set(accountId, evolveAccount(this.accounts.get(accountId) ?? { status: 'none' }, { type: event.type, data: event.data } as AccountEvent));
    } else return;
    this.revisions.set(stream, event.revision);
  }

  private applyToKey(event: RecordedEvent): void {
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
  }
}
