import { DomainError } from '../../../platform/src/errors.js';
import type { Tier } from './api-key.js';

/** interface.md, "Authentication" rule 9. */
export class MissingApiKeyError extends DomainError {
  readonly code = 'MISSING_API_KEY';
  readonly status = 401;
  constructor() {
    super('send your API key in the X-API-Key header');
  }
}

export class InvalidApiKeyError extends DomainError {
  readonly code = 'INVALID_API_KEY';
  readonly status = 401;
  constructor() {
    super('the API key is unknown, revoked or expired');
  }
}

/** decisions.md: admin endpoints open only with ADMIN_API_KEY. */
export class AdminKeyRequiredError extends DomainError {
  readonly code = 'ADMIN_KEY_REQUIRED';
  readonly status = 403;
  constructor() {
    super('this endpoint needs the operator key');
  }
}

/**
 * interface.md, "Limits" 3: the key's rolling 24 h quota is spent. With the
 * quota named, `details` says so (docs/adr/0060: every 429 names its limit):
 * `{reason: 'quota', scope: 'key', tier, limit, window_s: 86400}`.
 */
export class RateLimitedError extends DomainError {
  readonly code = 'RATE_LIMITED';
  readonly status = 429;
  override readonly details?: Readonly<{ reason: 'quota'; scope: 'key'; tier: Tier; limit: number; window_s: number }>;
  constructor(
    override readonly retryAfterSeconds: number,
    quota?: { tier: Tier; limit: number },
  ) {
    super(
      quota
        ? `daily quota exhausted: the ${quota.tier} tier allows ${quota.limit} requests per rolling 24 h; capacity frees up in ${retryAfterSeconds} s`
        : `daily quota exhausted; capacity frees up in ${retryAfterSeconds} s (rolling 24 h window)`,
    );
    if (quota) this.details = { reason: 'quota', scope: 'key', tier: quota.tier, limit: quota.limit, window_s: 86_400 };
  }
}

/**
 * Issue 31, item 2: the key already has EXPENSIVE_CONCURRENCY_PER_KEY expensive
 * requests in flight. RATE_LIMITED as every 429, told apart by `details.reason`.
 */
export class ConcurrencyLimitedError extends DomainError {
  readonly code = 'RATE_LIMITED';
  readonly status = 429;
  override readonly retryAfterSeconds = 1;
  override readonly details: Readonly<{ reason: 'concurrency'; max_concurrent: number }>;
  constructor(maxConcurrent: number) {
    super(`this key already has ${maxConcurrent} expensive requests in flight; send the next when one has answered`);
    this.details = { reason: 'concurrency', max_concurrent: maxConcurrent };
  }
}

/** A bulk call of more items than the key's whole daily quota: no wait makes room, so no Retry-After; split the batch. */
export class BatchOverQuotaError extends DomainError {
  readonly code = 'RATE_LIMITED';
  readonly status = 429;
  override readonly details: Readonly<{ reason: 'batch_over_quota'; items: number; daily_limit: number }>;
  constructor(items: number, dailyLimit: number) {
    super(`this call counts ${items} items against the quota, more than the key's daily limit of ${dailyLimit}; split the batch`);
    this.details = { reason: 'batch_over_quota', items, daily_limit: dailyLimit };
  }
}

/** interface.md, "Authentication" 6: a legacy or operator key on an account-scoped endpoint. */
export class AccountKeyRequiredError extends DomainError {
  readonly code = 'ACCOUNT_KEY_REQUIRED';
  readonly status = 403;
  constructor() {
    super('this endpoint needs a key that belongs to an account');
  }
}

/** interface.md, "Authentication" 7. */
export class BankingAccessRequiredError extends DomainError {
  readonly code = 'BANKING_ACCESS_REQUIRED';
  readonly status = 403;
  constructor() {
    super('this account is not provisioned for the banking features; ask the operator');
  }
}

/** interface.md, "Authentication" 8. */
export class IpNotAllowedError extends DomainError {
  readonly code = 'IP_NOT_ALLOWED';
  readonly status = 403;
  constructor(ip: string) {
    super(`requests from ${ip} are outside this account's IP allowlist`);
  }
}

/** interface.md, "Errors": the endpoint needs a higher plan tier. */
export class TierRequiredError extends DomainError {
  readonly code = 'TIER_REQUIRED';
  readonly status = 403;
  constructor(required: string) {
    super(`this endpoint needs the ${required} tier`);
  }
}

/** An operator action names an account nobody opened. */
export class AccountNotFoundError extends DomainError {
  readonly code = 'ACCOUNT_NOT_FOUND';
  readonly status = 404;
  constructor(accountId: string) {
    super(`no account ${accountId}`);
  }
}

/**
 * interface.md, "Errors": RATE_LIMITED for a throttle other than the key's
 * daily quota (signups per address, password attempts). The answer carries
 * Retry-After.
 */
export class ThrottledError extends DomainError {
  readonly code = 'RATE_LIMITED';
  readonly status = 429;
  constructor(
    message: string,
    override readonly retryAfterSeconds: number,
    override readonly details?: Readonly<Record<string, unknown>>,
  ) {
    super(message);
  }
}
