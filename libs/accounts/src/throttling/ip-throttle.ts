import type { FastifyReply, FastifyRequest } from 'fastify';
import { failure, rateLimitHeaders, type Clock, type Config, type RateLimiter, type RateLimitRule, type RequestGate } from '../../../platform/src/index.js';
import { QUOTA_WINDOW_MS } from '../quota.js';

const MINUTE_MS = 60_000;

/** interface.md, "Limits" 4: the static route image is throttled to 15 per minute per IP. */
export const ROUTE_STATIC_PER_MINUTE = 15;
/** Landmark reports are public: a person reports a few landmarks, not dozens a minute (docs/adr/0013). */
export const LANDMARK_REPORTS_PER_MINUTE = 10;
const LANDMARK_REPORT_PATH = /^\/v2\/landmarks\/[^/]+\/report$/;

interface Group {
  name: string;
  matches: (path: string) => boolean;
  perMinute: (config: Config) => number;
}

/** Endpoint groups with their own per-IP throttles; the first that matches applies. */
const GROUPS: Group[] = [
  { name: 'route_static', matches: (path) => path === '/v2/route/static', perMinute: () => ROUTE_STATIC_PER_MINUTE },
  { name: 'landmark_reports', matches: (path) => LANDMARK_REPORT_PATH.test(path), perMinute: () => LANDMARK_REPORTS_PER_MINUTE },
  { name: 'routing', matches: (path) => path === '/v2/route' || path.startsWith('/v2/route/'), perMinute: (config) => config.throttles.routing },
  {
    name: 'navigation',
    matches: (path) => path.startsWith('/v2/navigate/') || path.startsWith('/v2/navigation/'),
    perMinute: (config) => config.throttles.navigation,
  },
  { name: 'language', matches: (path) => path.startsWith('/v2/language/'), perMinute: (config) => config.throttles.language },
];

/**
 * Per-IP throttles, applied before routing so they hold for every endpoint of
 * a group whoever calls it (keyed or public). With AUTH_DISABLED, requests
 * without a key are limited per IP over a rolling 24 h instead of per key.
 * The client IP is Fastify's `request.ip`, which honours TRUST_PROXY.
 */
export function ipThrottle(limiter: RateLimiter, config: Config, clock: Clock): RequestGate {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?')[0];
    const group = GROUPS.find((candidate) => candidate.matches(path));
    const rules: Array<[string, RateLimitRule]> = [];
    if (group) rules.push([`ip:${group.name}:${request.ip}`, { limit: group.perMinute(config), windowMs: MINUTE_MS }]);
    if (config.authDisabled && path.startsWith('/v2/') && !request.headers['x-api-key']) {
      rules.push([`ip:daily:${request.ip}`, { limit: config.devIpDailyLimit, windowMs: QUOTA_WINDOW_MS }]);
    }
    for (const [key, rule] of rules) {
      const decision = await limiter.consume(key, rule, clock.now());
      void reply.headers({ ...rateLimitHeaders(decision) });
      if (!decision.allowed) {
        const retryAfter = Math.max(1, Math.ceil(decision.retryAfterMs / 1000));
        await reply
          .status(429)
          .header('retry-after', String(retryAfter))
          .send(failure('RATE_LIMITED', `too many requests from ${request.ip}; retry in ${retryAfter} s`, { request_id: String(request.id) }));
        return true;
      }
    }
    return false;
  };
}
