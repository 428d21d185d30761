import type { OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { LogFollower, type EventRegistry, type EventStore, type FollowedView, type JsonLogger, type RecordedEvent } from '../../../platform/src/index.js';
import type { AccountOpened } from '../domain/account.js';
import type { ApiKeyIssued, ApiKeyRevoked } from '../domain/api-key.js';
import { userIdForAccount, type UserPasswordResetRequested } from '../domain/user.js';

const STREAM_PREFIXES = ['account-', 'api_key-', 'user-'];

/** The account an e-mail address signs in to, and its user. */
export interface SignInAccount {
  account_id: string;
  user_id: string;
  email: string;
  /** Global position of the account's AccountOpened event. */
  opened_at_position: bigint;
}

/**
 * What sign-in looks up, held in memory and kept current by a catch-up
 * subscription to the `account-`, `api_key-` and `user-` streams (the pattern
 * of the key directory):
 *
 * - address → account. Signup lets several accounts share an address, but an
 *   address signs in to one: the first account opened with it. A later signup
 *   with the same address cannot take sign-in over.
 * - user → live personal tokens, which a password reset revokes.
 * - reset-token hash → user, for POST /v2/auth/reset-password.
 *
 * It is the read model `sign_in_directory`: commands whose answer or next
 * step reads it declare `awaits: ['sign_in_directory']`.
 * Like the key directory it reads the whole log once at start; a persisted
 * read model would avoid that (a follow-up for both).
 */
export class SignInDirectory implements OnApplicationBootstrap, OnModuleDestroy, FollowedView {
  static readonly readModel = 'sign_in_directory';
  private readonly accountByEmail = new Map<string, string>();
  private readonly emailByAccount = new Map<string, string>();
  /** Where each account was opened: the key directory has the account once it reaches this position. */
  private readonly openedAt = new Map<string, bigint>();
  private readonly personalTokens = new Map<string, { user_id: string; expires_at: string | null }>();
  private readonly tokensByUser = new Map<string, Set<string>>();
  private readonly resetTokens = new Map<string, { user_id: string; expires_at: string }>();
  readonly follower: LogFollower;

  constructor(events: EventStore, registry: EventRegistry, logger?: JsonLogger) {
    this.follower = new LogFollower(events, registry, undefined, { name: 'sign-in directory', streamPrefixes: STREAM_PREFIXES, start: { from: 'beginning' }, sink: { handle: (event) => this.apply(event) } }, logger);
  }

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

  /** The account `email` (lower case, as signup stores it) signs in to. */
  accountForEmail(email: string): SignInAccount | undefined {
    const accountId = this.accountByEmail.get(email);
    return accountId === undefined ? undefined : this.account(accountId);
  }

  /** Whether `accountId` is the one its address signs in to. */
  signsInWithItsEmail(accountId: string): boolean {
    const email = this.emailByAccount.get(accountId);
    return email !== undefined && this.accountByEmail.get(email) === accountId;
  }

  account(accountId: string): SignInAccount | undefined {
    const email = this.emailByAccount.get(accountId);
    const openedAt = this.openedAt.get(accountId);
    if (email === undefined || openedAt === undefined) return undefined;
    return { account_id: accountId, user_id: userIdForAccount(accountId), email, opened_at_position: openedAt };
  }

  /** The user's personal tokens that are neither revoked nor expired at `now`. */
  liveTokensOf(userId: string, now: Date): string[] {
    return [...(this.tokensByUser.get(userId) ?? [])].filter((keyId) => {
      const expiresAt = this.personalTokens.get(keyId)?.expires_at;
      return expiresAt === null || expiresAt === undefined || new Date(expiresAt).getTime() > now.getTime();
    });
  }

  /** Whose reset token has this hash, while it may still be valid; the user's stream decides whether it is. */
  userForResetToken(tokenHash: string, now: Date): string | undefined {
    const entry = this.resetTokens.get(tokenHash);
    if (!entry || new Date(entry.expires_at).getTime() <= now.getTime()) return undefined;
    return entry.user_id;
  }

  /** Resolves once every event up to `position` is applied here. */
  waitFor(position: bigint, timeoutMs: number): Promise<void> {
    return this.follower.waitFor(position, timeoutMs);
  }

  private apply(event: RecordedEvent): void {
    switch (event.type) {
      case 'AccountOpened':
        this.accountOpened(event.data as AccountOpened['data'], event.position);
        break;
      case 'ApiKeyIssued':
        this.keyIssued(event.data as ApiKeyIssued['data']);
        break;
      case 'ApiKeyRevoked':
        this.keyRevoked(event.data as ApiKeyRevoked['data']);
        break;
      case 'UserPasswordResetRequested':
        this.resetRequested(event.data as UserPasswordResetRequested['data']);
        break;
      default:
        break;
    }
  }

  private accountOpened(data: AccountOpened['data'], position: bigint): void {
    const email = data.email.toLowerCase();
    if (!this.accountByEmail.has(email)) this.accountByEmail.set(email, data.account_id);
    this.emailByAccount.set(data.account_id, email);
    this.openedAt.set(data.account_id, position);
  }

  private keyIssued(data: ApiKeyIssued['data']): void {
    if (data.kind === 'personal' && data.user_id) {
      this.personalTokens.set(data.key_id, { user_id: data.user_id, expires_at: data.expires_at });
      let tokens = this.tokensByUser.get(data.user_id);
      if (!tokens) this.tokensByUser.set(data.user_id, (tokens = new Set()));
      tokens.add(data.key_id);
    }
  }

  private keyRevoked(data: ApiKeyRevoked['data']): void {
    const token = this.personalTokens.get(data.key_id);
    if (!token) return;
    this.personalTokens.delete(data.key_id);
    const tokens = this.tokensByUser.get(token.user_id);
    tokens?.delete(data.key_id);
    if (tokens?.size === 0) this.tokensByUser.delete(token.user_id);
  }

  private resetRequested(data: UserPasswordResetRequested['data']): void {
    // Entries that had expired by the time of this request can never be used: forget them, so the map stays small.
    for (const [hash, entry] of this.resetTokens) if (entry.expires_at <= data.requested_at) this.resetTokens.delete(hash);
    this.resetTokens.set(data.token_hash, { user_id: data.user_id, expires_at: data.expires_at });
  }
}
