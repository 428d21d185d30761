import type { CommandBus } from '@nestjs/cqrs';
import { ChangedConcurrentlyError, type Clock } from '../../../platform/src/index.js';
import type { KeyDirectory } from '../public/key-directory.js';
import { issueNewKey, issueThrough, RevokeKeyCommand } from '../keys/key-commands.js';
import { KeyNotActiveError } from '../domain/api-key.js';
import type { SignInAccount, SignInDirectory } from './sign-in-directory.js';

/** What POST /v2/auth/login and POST /v2/auth/google/mobile answer. */
export interface PersonalTokenView {
  /** Sent as X-API-Key, like any key (interface.md, "Authentication" 4); shown once. */
  token: string;
  token_prefix: string;
  expires_at: string;
  user_id: string;
  account_id: string;
}

export interface PersonalTokenOptions {
  /** PERSONAL_TOKEN_TTL_DAYS. */
  ttlDays: number;
  /** PROJECTION_WAIT_MS: how long to wait for the key directory to have a freshly opened account. */
  waitMs: number;
}

const DAY_MS = 24 * 60 * 60_000;

/**
 * Per-user tokens are API keys of kind `personal`: scoped to one user, with
 * the name, address and tier of the user's account, and an expiry. The key
 * guard maps them to a `user` principal. What the sign-in slices share: issue
 * one (`IssueKeyCommand`), and sign a user out everywhere (`RevokeKeyCommand` for each), both through the bus.
 */
export class PersonalTokens {
  constructor(
    private readonly commands: CommandBus,
    private readonly keyDirectory: KeyDirectory,
    private readonly directory: SignInDirectory,
    private readonly clock: Clock,
    private readonly options: PersonalTokenOptions,
  ) {}

  async issue(account: SignInAccount): Promise<PersonalTokenView & { key_id: string }> {
    // The account's current name and tier (the operator may have changed the tier since signup).
    let current = this.keyDirectory.account(account.account_id);
    if (!current) {
      // The sign-in directory found the account first: let the key directory catch up with it.
      await this.keyDirectory.waitFor(account.opened_at_position, this.options.waitMs);
      current = this.keyDirectory.account(account.account_id);
    }
    if (!current) throw new Error(`account ${account.account_id} is missing from the key directory`);
    const expiresAt = new Date(this.clock.now().getTime() + this.options.ttlDays * DAY_MS);
    const { key, record } = await issueNewKey(issueThrough(this.commands), this.keyDirectory, {
      kind: 'personal',
      account_id: account.account_id,
      user_id: account.user_id,
      name: current.name,
      email: current.email,
      tier: current.tier,
      expires_at: expiresAt.toISOString(),
      rotated_from: null,
    });
    return { token: key, token_prefix: record.key_prefix, expires_at: expiresAt.toISOString(), user_id: account.user_id, account_id: account.account_id, key_id: record.key_id };
  }

  /**
   * Revokes every live personal token of the user, except `keep`; answers how
   * many. Called after a password replacement whose command waited for the
   * sign-in directory: a token issued before the replacement is in the
   * directory by then, and one issued after it is withdrawn by the sign-in
   * that issued it.
   */
  async revokeAll(userId: string, keep?: string): Promise<number> {
    let revoked = 0;
    for (const keyId of this.directory.liveTokensOf(userId, this.clock.now())) {
      if (keyId === keep) continue;
      if (await this.withdraw(keyId)) revoked += 1;
    }
    return revoked;
  }

  /** Revokes one token; false when another request (a sign-out, say) revoked it at the same moment: gone either way. */
  async withdraw(keyId: string): Promise<boolean> {
    try {
      await this.commands.execute(new RevokeKeyCommand({ type: 'RevokeApiKey', data: { key_id: keyId, reason: 'deleted', replaced_by: null } }));
      return true;
    } catch (error) {
      if (error instanceof KeyNotActiveError || error instanceof ChangedConcurrentlyError) return false;
      throw error;
    }
  }
}
