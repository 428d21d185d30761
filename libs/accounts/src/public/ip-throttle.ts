import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  budgetRequest,
  failure,
  isExpensiveRoute,
  rateLimitHeaders,
  refuseOverBudget,
  type Clock,
  type Config,
  type RateDecision,
  type RateLimiter,
  type RateLimitRule,
  type RequestGate,
  type ResponseListener,
} from '../../../platform/src/index.js';
import type { KeyDirectory, KeyRecord } from './key-directory.js';
import { KeyReader } from '../authentication/presented-key.js';
import { ConcurrencyLimitedError, RateLimitedError } from '../domain/errors.js';
import type { InFlight } from './in-flight.js';
import { dailyLimitOf, QUOTA_WINDOW_MS, quotaKey } from '../quota.js';
import { groupBaseRate, keyedIpCeiling, keyedIpKey, keyRateKey, keyRateOf, RATE_WINDOW_MS, rateGroupOf, type RateGroup } from '../throttling/key-rates.js';
import { rateLimitMessage, type RateLimitDetails } from '../throttling/refusals.js';

// The per-key rates by tier and group, for the guide's table and the tests (docs/adr/0060).
export { rateTable, RATE_GROUPS, TIER_RATE_FACTORS, type RateGroup } from '../throttling/key-rates.js';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

/** interface.md, "Limits" 4: the static route image is throttled to 15 per minute per IP. */
export const ROUTE_STATIC_PER_MINUTE = 15;
/** Landmark reports are public: a person reports a few landmarks, not dozens a minute (docs/adr/0013). */
export const LANDMARK_REPORTS_PER_MINUTE = 10;
/**
 * Requests without a valid key that no group below covers (public endpoints,
 * and calls that end in 401 or 404): the default per-IP ceiling their
 * X-RateLimit-* headers report (interface.md, "Limits" 2); THROTTLE_PUBLIC_PER_MINUTE sets it.
 */
export const PUBLIC_PER_IP_PER_MINUTE = 600;
const publicRule = (config: Config): RateLimitRule => ({ limit: config.throttles.public, windowMs: MINUTE_MS });
const LANDMARK_REPORT_PATH = /^\/v2\/landmarks\/[^/]+\/report$/;

interface Group {
  name: string;
  matches: (method: string, path: string) => boolean;
  rule: (config: Config) => RateLimitRule;
  /**
   * The rule is a fixed count per window that a client may use at once (the spec's 15 static images a
   * minute; signups per hour): no burst window below it.
   */
  fixed?: boolean;
}

/** A charge of `BODY_COST_UNIT_BYTES` (or part of it) of a keyless JSON body counts as one request (issue 31). */
export const BODY_COST_UNIT_BYTES = 1024;

/**
 * The burst window under a per-minute rule (issue 31): at most a `burstSeconds`
 * share of the minute's allowance in any `burstSeconds`, and never fewer than
 * min(limit, 10), so a small allowance (3 a minute) can still be used at once.
 * A rolling window like every other (same adapters, journal and Redis script),
 * so a minute's allowance cannot land in one second: it arrives at most a
 * sixth at a time, ten seconds apart (by default).
 */
export function burstRule(rule: RateLimitRule, burstSeconds: number): RateLimitRule {
  const windowMs = burstSeconds * 1000;
  if (windowMs >= rule.windowMs) return rule;
  return { limit: Math.min(rule.limit, Math.max(Math.ceil((rule.limit * windowMs) / rule.windowMs), Math.min(rule.limit, 10))), windowMs };
}

/**
 * What a request counts for against its per-IP throttles: 1, or for a caller
 * without a valid key one per started KiB of its declared JSON body, so a wide
 * body costs what it makes the server read. Keyed callers pay by their quota
 * instead (bulk calls by items). A chunked body declares no length and counts 1:
 * the keyless body limit bounds it while it is read.
 */
export function requestCost(request: FastifyRequest, keyless: boolean): number {
  if (!keyless) return 1;
  const length = Number(request.headers['content-length'] ?? 0);
  if (!(length > 0) || !isJson(request.headers['content-type'])) return 1;
  return Math.max(1, Math.ceil(length / BODY_COST_UNIT_BYTES));
}

function isJson(contentType: string | undefined): boolean {
  if (!contentType) return false;
  const type = contentType.split(';', 1)[0].trim().toLowerCase();
  return type === 'application/json' || type.endsWith('+json');
}

const perMinute = (limit: number): RateLimitRule => ({ limit, windowMs: MINUTE_MS });

/** Endpoint groups throttled per IP for every caller, with a key or without (a person's or a page's pace); the first that matches applies. */
const IP_GROUPS: Group[] = [
  // Issue #10, item 4: thousands of signups from one address in seconds.
  { name: 'signup', matches: (method, path) => method === 'POST' && path === '/v2/self/signup', rule: (config) => ({ limit: config.signupLimitPerIpPerHour, windowMs: HOUR_MS }), fixed: true },
  { name: 'route_static', matches: (_, path) => path === '/v2/route/static', rule: () => perMinute(ROUTE_STATIC_PER_MINUTE), fixed: true },
  { name: 'landmark_reports', matches: (_, path) => LANDMARK_REPORT_PATH.test(path), rule: () => perMinute(LANDMARK_REPORTS_PER_MINUTE) },
];

/**
 * The per-IP throttle of a request without a valid key, by its rate group: transit shares the routing throttle
 * (a RAPTOR search per request), and everything outside the groups counts against the public ceiling.
 */
function keylessGroup(group: RateGroup, config: Config): { name: string; rule: RateLimitRule } {
  if (group === 'other') return { name: 'public', rule: publicRule(config) };
  const name = group === 'transit' ? 'routing' : group;
  return { name, rule: perMinute(groupBaseRate(group, config.throttles)) };
}

/** A per-IP rule to count, with what a refusal by it says. */
interface IpRule {
  name: string;
  rule: RateLimitRule;
  fixed: boolean;
  callers: 'keyless' | 'all';
}

/**
 * The request hook that applies every rate limit but the daily quota (the
 * guard counts that one), before routing and before the body is read
 * (docs/adr/0060):
 *
 * - a request with a valid key counts against its account's per-minute rate
 *   in the request's group (`throttling/key-rates.ts`: the tier's factor times
 *   the group's THROTTLE_*_PER_MINUTE, or the operator's override), and
 *   against the per-IP ceiling of all keyed callers (THROTTLE_KEYED_IP_FACTOR
 *   times that throttle): far above any tier's rate, it bounds a flood of
 *   keys from one address, not a key;
 * - a request without a valid key counts against the per-IP throttle of its
 *   group (routing with transit, navigation, language), or else the public
 *   ceiling;
 * - the static route image, signups and landmark reports are throttled per
 *   IP for everyone, key or not (interface.md, "Limits" 4).
 *
 * The operator key counts only against the keyed per-IP ceiling. With
 * AUTH_DISABLED, requests without a key are also limited per IP over a
 * rolling 24 h instead of per key. The client IP is Fastify's `request.ip`,
 * which honours TRUST_PROXY.
 *
 * Issue 31: a request without a valid key gets the keyless body budget
 * (PUBLIC_BODY_LIMIT_BYTES) unless its route declares one, and is charged by
 * its body's size (`requestCost`); every keyless per-minute rule but the fixed
 * ones has a burst window under it (`burstRule`). Keyed rates have none: a key
 * answers for itself, and an overloaded process sheds load (503 SERVICE_BUSY, issue 48).
 * A refusal is 429 RATE_LIMITED with Retry-After and `details` naming the
 * limit. Keyless requests report their per-IP rule in X-RateLimit-* (with
 * Remaining no more than the burst window has left); keyed ones report their
 * quota there (the guard's count) and their per-minute rate in
 * X-RateLimit-Rate-* and X-RateLimit-Policy.
 */
export function ipThrottle(
  limiter: RateLimiter,
  config: Config,
  clock: Clock,
  directory: KeyDirectory,
  options: { inFlight?: InFlight } = {},
): RequestGate {
  const { inFlight } = options;
  const callers = new Callers(config, directory);
  const keylessBudget = { maxBytes: config.publicBodyLimitBytes, maxValues: 2_000, maxDepth: 8 };
  /**
   * The refusal an expensive request of `key` gets before its body is read, if any (the guard's, word for word,
   * only earlier). It takes one of the key's slots of expensive requests (InFlight, shared by the api processes
   * through Redis; held until the answer is sent) or is refused at the cap, and is refused with its daily quota
   * spent too: an expensive request costs at least 1 (ADR 0041: a spent key's 10,000-point bulks were still uploaded
   * and scanned).
   */
  const refuseExpensiveEarly = async (request: FastifyRequest, reply: FastifyReply, key: KeyRecord): Promise<{ error: ConcurrencyLimitedError | RateLimitedError; headers: Record<string, string> } | undefined> => {
    if (inFlight && !(await inFlight.take(request, reply, key.key_id))) return { error: new ConcurrencyLimitedError(inFlight.max), headers: {} };
    if (key.revoked_at !== null) return undefined;
    const tier = directory.tierOf(key);
    const quota = await limiter.peek(quotaKey(key.key_id), { limit: dailyLimitOf(tier), windowMs: QUOTA_WINDOW_MS }, clock.now());
    if (quota.allowed) return undefined;
    return { error: new RateLimitedError(Math.max(1, Math.ceil(quota.retryAfterMs / 1000)), { tier, limit: quota.limit }), headers: { ...rateLimitHeaders(quota) } };
  };

  /** Counts a keyless (or fixed, everyone's) per-IP rule; true when the request was refused (and answered). */
  const throttleIp = async (request: FastifyRequest, reply: FastifyReply, ip: IpRule, cost: number): Promise<boolean> => {
    const { rule } = ip;
    const key = `ip:${ip.name}:${request.ip}`;
    let burst: RateDecision | undefined;
    const under = ip.fixed ? rule : burstRule(rule, config.throttles.burstSeconds);
    if (under !== rule) {
      // The burst window first: a refusal there leaves the minute's count alone.
      burst = await limiter.consume(`${key}:burst`, under, clock.now(), Math.min(cost, under.limit));
      if (!burst.allowed) {
        void reply.headers({ ...rateLimitHeaders({ ...burst, limit: rule.limit, remaining: 0 }) });
        return refuse(request, reply, burst, { reason: 'rate', scope: 'ip', group: ip.name, callers: ip.callers, limit: under.limit, window_s: under.windowMs / 1000 });
      }
    }
    const decision = await limiter.consume(key, rule, clock.now(), Math.min(cost, rule.limit));
    void reply.headers({ ...rateLimitHeaders(burst ? { ...decision, remaining: Math.min(decision.remaining, burst.remaining) } : decision) });
    if (!decision.allowed) return refuse(request, reply, decision, { reason: 'rate', scope: 'ip', group: ip.name, callers: ip.callers, limit: rule.limit, window_s: rule.windowMs / 1000 });
    return false;
  };

  /**
   * Counts a keyed request (or the operator's) against its account's per-minute rate in the group and the keyed
   * per-IP ceiling; true when the request was refused (and answered).
   */
  const throttleKeyed = async (request: FastifyRequest, reply: FastifyReply, caller: KeyRecord | 'operator', group: RateGroup): Promise<boolean> => {
    let own = 0;
    if (caller !== 'operator') {
      const tier = directory.tierOf(caller);
      const overrides = caller.account_id ? directory.account(caller.account_id)?.rate_overrides : undefined;
      const rate = keyRateOf(group, tier, overrides, config.throttles);
      own = rate.limit;
      const decision = await limiter.consume(keyRateKey(group, tenantOf(caller)), { limit: rate.limit, windowMs: RATE_WINDOW_MS }, clock.now());
      void reply.headers(keyRateHeaders(decision, group, dailyLimitOf(tier)));
      if (!decision.allowed) return refuse(request, reply, decision, { reason: 'rate', scope: rate.source === 'override' ? 'account' : 'tier', group, tier, limit: rate.limit, window_s: RATE_WINDOW_MS / 1000 });
    }
    const ceiling = { limit: keyedIpCeiling(group, config.throttles, own), windowMs: RATE_WINDOW_MS };
    const decision = await limiter.consume(keyedIpKey(group, request.ip), ceiling, clock.now());
    if (!decision.allowed) return refuse(request, reply, decision, { reason: 'rate', scope: 'ip', group, callers: 'keyed', limit: ceiling.limit, window_s: RATE_WINDOW_MS / 1000 });
    return false;
  };

  return async (request: FastifyRequest, reply: FastifyReply) => {
    const path = routedPath(request.url);
    // A health check or the metrics.
    if (!path.startsWith('/v2/')) return false;
    const caller = await callers.current(request);
    const keyless = caller === 'anonymous';
    // JSON only: the language endpoint's audio has its own limit (LANGUAGE_AUDIO_MAX_BYTES).
    if (keyless && isJson(request.headers['content-type'])) budgetRequest(request, keylessBudget);
    // The route's budget, or the keyless one, on the declared length.
    if (refuseOverBudget(request, reply)) return true;
    // A key's expensive request (bulk calls, service areas, fences, portfolio risk) is looked at before its (large)
    // body is read: refused at its cap or with its quota spent.
    const heavyKey = typeof caller === 'object' && isExpensiveRoute(request) ? caller : undefined;
    if (heavyKey) {
      const refusal = await refuseExpensiveEarly(request, reply, heavyKey);
      if (refusal) {
        await refuseUnread(request, reply, refusal.error, refusal.headers);
        return true;
      }
    }
    const everyone = IP_GROUPS.find((candidate) => candidate.matches(request.method, path));
    if (everyone) {
      if (await throttleIp(request, reply, { name: everyone.name, rule: everyone.rule(config), fixed: everyone.fixed ?? false, callers: 'all' }, requestCost(request, keyless))) return true;
    } else if (keyless) {
      const { name, rule } = keylessGroup(rateGroupOf(path), config);
      if (await throttleIp(request, reply, { name, rule, fixed: false, callers: 'keyless' }, requestCost(request, true))) return true;
    } else if (await throttleKeyed(request, reply, caller, rateGroupOf(path))) {
      return true;
    }
    if (config.authDisabled && !request.headers['x-api-key']) {
      const decision = await limiter.consume(`ip:daily:${request.ip}`, { limit: config.devIpDailyLimit, windowMs: QUOTA_WINDOW_MS }, clock.now());
      void reply.headers({ ...rateLimitHeaders(decision) });
      if (!decision.allowed) return refuse(request, reply, decision, { reason: 'rate', scope: 'ip', group: 'daily', callers: 'keyless', limit: config.devIpDailyLimit, window_s: QUOTA_WINDOW_MS / 1000 });
    }
    return false;
  };
}

/**
 * The headers of a keyed request's per-minute rate (docs/adr/0060): X-RateLimit-Rate-Limit, -Remaining and -Reset
 * as the quota's three, and X-RateLimit-Policy naming both limits that apply, in the IETF draft's syntax
 * (`"quota";q=20000;w=86400, "routing";q=600;w=60`).
 */
function keyRateHeaders(decision: RateDecision, group: RateGroup, dailyLimit: number): Record<string, string> {
  return {
    'X-RateLimit-Rate-Limit': String(decision.limit),
    'X-RateLimit-Rate-Remaining': String(decision.remaining),
    'X-RateLimit-Rate-Reset': String(Math.ceil(decision.resetAt.getTime() / 1000)),
    'X-RateLimit-Policy': `"quota";q=${dailyLimit};w=${QUOTA_WINDOW_MS / 1000}, "${group}";q=${decision.limit};w=${RATE_WINDOW_MS / 1000}`,
  };
}

/** Whose rate a keyed request counts against: its account's, or its key's when the key has no account. */
function tenantOf(caller: KeyRecord): string {
  return caller.account_id ?? caller.key_id;
}

/** A 429 answered before the request's body is read: the connection closes after it, so the body is never read. */
async function refuseUnread(request: FastifyRequest, reply: FastifyReply, error: ConcurrencyLimitedError | RateLimitedError, headers: Record<string, string> = {}): Promise<void> {
  await reply
    .status(error.status)
    .header('connection', 'close')
    .headers(headers)
    .header('retry-after', String(error.retryAfterSeconds))
    .send(failure(error.code, error.message, { ...(error.details ? { details: error.details } : {}), request_id: String(request.id) }));
}

/** 429 RATE_LIMITED with Retry-After, naming the limit that refused the request in its message and `details`. */
async function refuse(request: FastifyRequest, reply: FastifyReply, decision: RateDecision, details: RateLimitDetails): Promise<true> {
  const retryAfter = Math.max(1, Math.ceil(decision.retryAfterMs / 1000));
  await reply
    .status(429)
    .header('retry-after', String(retryAfter))
    .send(failure('RATE_LIMITED', rateLimitMessage(details, request.ip, retryAfter), { details, request_id: String(request.id) }));
  return true;
}

/**
 * interface.md, "Limits" 2: every response carries X-RateLimit-*. The guard
 * and the per-IP throttles set them where they count; this fills in the rest
 * without counting anything: a keyed request that never reached the guard (an
 * unknown path, a route outside Nest) or that the guard refused before its
 * quota (403) reports its key's daily quota; anything else reports the
 * client's public per-IP ceiling. Outside /v2 (`/health`) nothing is added.
 */
export function rateLimitHeadersOnEveryResponse(limiter: RateLimiter, config: Config, clock: Clock, directory: KeyDirectory): ResponseListener {
  const callers = new Callers(config, directory);
  return async (request, reply) => {
    if (reply.hasHeader('x-ratelimit-limit') || !request.url.startsWith('/v2/')) return;
    const caller = callers.of(request);
    try {
      const decision =
        typeof caller === 'object'
          ? await limiter.peek(quotaKey(caller.key_id), { limit: dailyLimitOf(directory.tierOf(caller)), windowMs: QUOTA_WINDOW_MS }, clock.now())
          : await limiter.peek(publicKey(request), publicRule(config), clock.now());
      void reply.headers({ ...rateLimitHeaders(decision) });
    } catch {
      // The answer matters more than its headers: a rate limiter that cannot be read (Redis down) leaves them out.
    }
  };
}

const publicKey = (request: FastifyRequest) => `ip:public:${request.ip}`;

/**
 * The path as the router matches it: find-my-way percent-decodes a path before
 * matching, so `/v2/%72oute/transit` reaches POST /v2/route/transit and must
 * count in the routing group too. Decoding everything (%2F included) can only
 * put a request into a group it would not reach, never take it out of one.
 */
function routedPath(url: string): string {
  const query = url.indexOf('?');
  const raw = query < 0 ? url : url.slice(0, query);
  // Nothing to decode (the usual case): decodeURIComponent would answer the same text, slower.
  if (!raw.includes('%')) return raw;
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** Who sent a request, as far as its X-API-Key tells without reading the log: the key's record, the operator, or nobody known. */
class Callers {
  private readonly keys: KeyReader;

  constructor(
    config: Config,
    private readonly directory: KeyDirectory,
  ) {
    this.keys = new KeyReader(config.adminApiKey);
  }

  of(request: FastifyRequest): KeyRecord | 'operator' | 'anonymous' {
    const key = this.keys.read(request);
    if (!key || key.key.length > 256) return 'anonymous';
    if (key.operator) return 'operator';
    return this.directory.byKeyHash(key.hash) ?? 'anonymous';
  }

  /**
   * As `of`, but the key is checked against the store first (once per request:
   * the guard reuses the check), so a change acknowledged by another api
   * process counts here at once (ADR 0057): a key issued there is the key's
   * (its quota, rate and body budget), not a keyless caller; a key revoked
   * there is keyless; a tier changed there sets the rate. Should the store not
   * answer, the request goes on as keyless and the guard answers the failure.
   */
  async current(request: FastifyRequest): Promise<KeyRecord | 'operator' | 'anonymous'> {
    const key = this.keys.read(request);
    if (!key || key.key.length > 256) return 'anonymous';
    if (key.operator) return 'operator';
    return (await this.directory.check(key).catch(() => undefined)) ?? 'anonymous';
  }
}
