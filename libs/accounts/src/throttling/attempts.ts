import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, RATE_LIMITER, type Clock, type RateLimiter, type RateLimitRule } from '../../../platform/src/index.js';
import { ThrottledError } from '../domain/errors.js';

const FIFTEEN_MINUTES_MS = 15 * 60_000;
const HOUR_MS = 60 * 60_000;

/**
 * Failed sign-ins per address (POST /v2/auth/login). Counted for every address
 * asked about, known or not, so the limit tells nothing about which addresses
 * exist; it caps guessing against one address at 40 an hour, whatever keys the
 * guesser holds.
 */
export const FAILED_SIGN_INS_PER_ADDRESS: RateLimitRule = { limit: 10, windowMs: FIFTEEN_MINUTES_MS };
/** Wrong `current_password` on POST /v2/me/password, per account: the same cap on guessing as sign-in. */
export const FAILED_PASSWORD_CHECKS_PER_ACCOUNT: RateLimitRule = { limit: 10, windowMs: FIFTEEN_MINUTES_MS };
/**
 * Failed password checks (sign-in and POST /v2/me/password together) per
 * client IP: one client guessing across many addresses, or keeping the hash
 * threads busy. Generous enough for an office behind one address.
 */
export const FAILED_PASSWORD_CHECKS_PER_IP: RateLimitRule = { limit: 50, windowMs: FIFTEEN_MINUTES_MS };
/** Signups per e-mail address (issue #10: 60 signups with one address): a person signs up a few times, not dozens. */
export const SIGNUPS_PER_ADDRESS: RateLimitRule = { limit: 3, windowMs: HOUR_MS };

/** One counter: what it counts, whose limit it is (the refusal's `details.scope`), and what the caller is told when it is spent. */
export interface AttemptCounter {
  key: string;
  rule: RateLimitRule;
  /** What is counted (`details.group`) and per what (`details.scope`: docs/adr/0060, every 429 names its limit). */
  group: 'failed_sign_ins' | 'failed_password_checks' | 'signups';
  scope: 'address' | 'account' | 'ip';
  refusal: (retryAfterSeconds: number) => string;
}

/** Addresses and other personal data name counters only as digests: counter keys may end up in Redis. */
const digest = (value: string) => createHash('sha256').update(value).digest('hex').slice(0, 32);

export const attemptCounters = {
  signInsFor: (email: string): AttemptCounter => ({
    key: `sign-in-failures:${createHash('sha256').update(email).digest('hex')}`,
    rule: FAILED_SIGN_INS_PER_ADDRESS,
    group: 'failed_sign_ins',
    scope: 'address',
    refusal: (seconds) => `too many failed sign-ins for this address; try again in ${seconds} s`,
  }),
  passwordChecksOf: (accountId: string): AttemptCounter => ({
    key: `password-failures:account:${accountId}`,
    rule: FAILED_PASSWORD_CHECKS_PER_ACCOUNT,
    group: 'failed_password_checks',
    scope: 'account',
    refusal: (seconds) => `too many wrong passwords for this account; try again in ${seconds} s`,
  }),
  passwordChecksFrom: (ip: string): AttemptCounter => ({
    key: `password-failures:ip:${ip}`,
    rule: FAILED_PASSWORD_CHECKS_PER_IP,
    group: 'failed_password_checks',
    scope: 'ip',
    refusal: (seconds) => `too many wrong passwords from ${ip}; try again in ${seconds} s`,
  }),
  signUpsWith: (email: string): AttemptCounter => ({
    key: `signups:email:${digest(email)}`,
    rule: SIGNUPS_PER_ADDRESS,
    group: 'signups',
    scope: 'address',
    refusal: (seconds) => `too many signups with this e-mail address; try again in ${seconds} s`,
  }),
};

/**
 * Throttles on attempts (issue #10, items 4 and 5), on the shared rate
 * limiter (Redis when configured, so the limits hold across instances).
 * `check` refuses with 429 RATE_LIMITED once a counter is spent, `failed`
 * counts a failure, `consume` counts an attempt whatever its outcome.
 */
@Injectable()
export class Attempts {
  constructor(
    @Inject(RATE_LIMITER) private readonly limiter: RateLimiter,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async check(...counters: AttemptCounter[]): Promise<void> {
    for (const counter of counters) {
      const decision = await this.limiter.peek(counter.key, counter.rule, this.clock.now());
      if (!decision.allowed) throw refused(counter, decision.retryAfterMs);
    }
  }

  async failed(...counters: AttemptCounter[]): Promise<void> {
    for (const counter of counters) await this.limiter.consume(counter.key, counter.rule, this.clock.now());
  }

  async consume(counter: AttemptCounter): Promise<void> {
    const decision = await this.limiter.consume(counter.key, counter.rule, this.clock.now());
    if (!decision.allowed) throw refused(counter, decision.retryAfterMs);
  }
}

function refused(counter: AttemptCounter, retryAfterMs: number): ThrottledError {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return new ThrottledError(counter.refusal(seconds), seconds, { reason: 'attempts', scope: counter.scope, group: counter.group, limit: counter.rule.limit, window_s: counter.rule.windowMs / 1000 });
}
