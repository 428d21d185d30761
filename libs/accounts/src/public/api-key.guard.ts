import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  ACCESS_LEVEL,
  CLOCK,
  CONFIG,
  EXPENSIVE_ROUTE,
  RATE_LIMITER,
  rateLimitHeaders,
  REQUIRED_TIER,
  type AccessLevel,
  type Clock,
  type Config,
  type ExpensiveRoute,
  type RateLimiter,
} from '../../../platform/src/index.js';
import { keyPrefix } from '../credentials/index.js';
import { TIERS, type Tier } from '../domain/api-key.js';
import {
  AccountKeyRequiredError,
  AdminKeyRequiredError,
  BankingAccessRequiredError,
  BatchOverQuotaError,
  ConcurrencyLimitedError,
  InvalidApiKeyError,
  IpNotAllowedError,
  MissingApiKeyError,
  RateLimitedError,
  TierRequiredError,
} from '../domain/errors.js';
import { IpAllowlist } from '../domain/ip-allowlist.js';
import { dailyLimitOf, QUOTA_WINDOW_MS, quotaKey } from '../quota.js';
import { KeyDirectory, type KeyRecord } from './key-directory.js';
import { KeyReader, type PresentedKey } from '../authentication/presented-key.js';
import { InFlight } from './in-flight.js';

interface RouteAccess {
  level: AccessLevel;
  requiredTier: Tier | undefined;
  expensive: ExpensiveRoute | undefined;
}

/**
 * Authenticates X-API-Key on every route not marked public (interface.md,
 * "Authentication"), applies the access rules (account keys, banking, IP
 * allowlist, tier), then counts the request against the key's rolling 24 h
 * quota and sets the X-RateLimit-* headers ("Limits"). Refused requests do not
 * use quota. On `optional-key` routes a key that passes the same checks names
 * the caller and anything else leaves the request anonymous; no quota is
 * counted there (the route is public, under its per-IP throttle). An
 * `@Expensive` route (issue 31) holds one of the key's in-flight slots until
 * its answer is sent, and a bulk call counts its items against the quota.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  private readonly allowlists = new Map<string, IpAllowlist>();
  private readonly keys: KeyReader;
  /** Per controller class and handler (a method inherited by two controllers has each one's class decorators). */
  private readonly routes = new WeakMap<Function, WeakMap<Function, RouteAccess>>();

  constructor(
    private readonly reflector: Reflector,
    @Inject(CONFIG) private readonly config: Config,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(RATE_LIMITER) private readonly limiter: RateLimiter,
    private readonly directory: KeyDirectory,
    private readonly inFlight: InFlight,
  ) {
    this.keys = new KeyReader(config.adminApiKey);
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const { level, requiredTier, expensive } = this.routeAccess(context);
    if (level === 'public') return true;
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    if (this.config.authDisabled && level === 'key') return true;
    const key = this.keys.read(request);
    if (level === 'optional-key') return this.identifyIfValid(request, key);
    if (!key) throw new MissingApiKeyError();
    if (key.operator) {
      request.principal = { kind: 'admin', account_id: null, key_prefix: keyPrefix(key.key) };
      if (level === 'account' || level === 'banking') throw new AccountKeyRequiredError();
      return true;
    }
    if (level === 'admin') throw this.config.adminApiKey ? new InvalidApiKeyError() : new AdminKeyRequiredError();

    const now = this.clock.now();
    const record = await this.authenticate(key, now);
    identify(request, record);
    const tier = this.checkAccess(level, requiredTier, record, request.ip);

    const reply = http.getResponse<FastifyReply>();
    // Issue 31, item 2: an expensive request holds one of its key's slots until its answer is sent (or the
    // client goes): taken by the per-IP gate before the body was read, or here for a route expensive only for some
    // bodies (`when`). Refused by the slot, it uses no quota.
    const heavy = expensive !== undefined && (expensive.when?.(request.body) ?? true);
    const release = heavy ? await this.inFlight.take(request, reply, record.key_id) : undefined;
    if (heavy && !release) throw new ConcurrencyLimitedError(this.inFlight.max);
    try {
      await this.countQuota(reply, record, tier, expensive?.items?.(request.body) ?? 1, now);
    } catch (error) {
      release?.();
      throw error;
    }
    return true;
  }

  /** A bulk call counts its items (at least 1); X-RateLimit-Remaining shows them gone. */
  private async countQuota(reply: FastifyReply, record: KeyRecord, tier: Tier, items: number, now: Date): Promise<void> {
    const rule = { limit: dailyLimitOf(tier), windowMs: QUOTA_WINDOW_MS };
    const cost = Math.max(1, Math.floor(items));
    if (cost > rule.limit) {
      void reply.headers({ ...rateLimitHeaders(await this.limiter.peek(quotaKey(record.key_id), rule, now)) });
      throw new BatchOverQuotaError(cost, rule.limit);
    }
    const decision = await this.limiter.consume(quotaKey(record.key_id), rule, now, cost);
    void reply.headers({ ...rateLimitHeaders(decision) });
    if (!decision.allowed) {
      const retryAfter = Math.max(1, Math.ceil(decision.retryAfterMs / 1000));
      throw new RateLimitedError(retryAfter, { tier, limit: rule.limit });
    }
  }

  /** A route's access level and required tier: read from its decorators once per handler, not per request. */
  private routeAccess(context: ExecutionContext): RouteAccess {
    const handler = context.getHandler();
    const controller = context.getClass();
    let byHandler = this.routes.get(controller);
    if (!byHandler) this.routes.set(controller, (byHandler = new WeakMap()));
    let access = byHandler.get(handler);
    if (!access) {
      const targets = [handler, controller];
      access = {
        level: this.reflector.getAllAndOverride<AccessLevel>(ACCESS_LEVEL, targets) ?? 'key',
        requiredTier: this.reflector.getAllAndOverride<Tier | undefined>(REQUIRED_TIER, targets),
        expensive: this.reflector.getAllAndOverride<ExpensiveRoute | undefined>(EXPENSIVE_ROUTE, targets),
      };
      byHandler.set(handler, access);
    }
    return access;
  }

  /** `optional-key`: the caller when the key passes every check, else an anonymous request; never a refusal. */
  private async identifyIfValid(request: FastifyRequest, key: PresentedKey | null): Promise<true> {
    if (!key) return true;
    if (key.operator) {
      request.principal = { kind: 'admin', account_id: null, key_prefix: keyPrefix(key.key) };
      return true;
    }
    try {
      identify(request, await this.authenticate(key, this.clock.now()));
    } catch (error) {
      // A key that is unknown, revoked or expired is ignored: it could only have merged the request with another caller's.
      if (!(error instanceof InvalidApiKeyError)) throw error;
    }
    return true;
  }

  /**
   * One hash and one map lookup find the key; the store then confirms the
   * directory is current for it, so a change acknowledged by another api
   * process is honoured here at once (docs/adr/0057; ADR 0028, "Request
   * path"). A key the directory holds: one read each of its stream's and its
   * account's revision, at once; a stream the store holds more of (a
   * revocation, a tier change) is read and applied first. A key it does not
   * hold (issued through another process a moment ago, or none at all): its
   * stream, named by the id derived from its hash, is read before any 401.
   * One check per request: the per-IP throttle made it already, in the api.
   */
  private async authenticate(key: PresentedKey, now: Date): Promise<KeyRecord> {
    const record = key.key.length <= 256 ? await this.directory.check(key) : undefined;
    if (!record) throw new InvalidApiKeyError();
    if (record.expires_at !== null && new Date(record.expires_at).getTime() <= now.getTime()) throw new InvalidApiKeyError();
    return record;
  }

  /** Answers the tier whose quota applies: the account's (the operator may change it), or a legacy key's own. */
  private checkAccess(level: AccessLevel, requiredTier: Tier | undefined, record: KeyRecord, ip: string): Tier {
    const account = record.account_id ? this.directory.account(record.account_id) : undefined;
    const tier = this.directory.tierOf(record);
    if ((level === 'account' || level === 'banking') && !account) throw new AccountKeyRequiredError();
    if (level === 'banking' && account) {
      if (!account.banking) throw new BankingAccessRequiredError();
      if (account.ip_allowlist.length > 0 && !this.allowlist(account.ip_allowlist).allows(ip)) throw new IpNotAllowedError(ip);
    }
    if (requiredTier && TIERS.indexOf(tier) < TIERS.indexOf(requiredTier)) throw new TierRequiredError(requiredTier);
    return tier;
  }

  private allowlist(entries: string[]): IpAllowlist {
    const cacheKey = entries.join(',');
    let parsed = this.allowlists.get(cacheKey);
    if (!parsed) {
      parsed = IpAllowlist.parse(entries);
      if (this.allowlists.size > 1000) this.allowlists.clear();
      this.allowlists.set(cacheKey, parsed);
    }
    return parsed;
  }
}

function identify(request: FastifyRequest, record: KeyRecord): void {
  request.apiKey = record;
  request.principal =
    record.kind === 'personal' && record.user_id
      ? { kind: 'user', account_id: record.account_id, key_prefix: record.key_prefix, user_id: record.user_id }
      : { kind: 'key', account_id: record.account_id, key_prefix: record.key_prefix };
}
