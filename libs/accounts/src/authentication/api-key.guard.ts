import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ACCESS_LEVEL, CLOCK, CONFIG, RATE_LIMITER, rateLimitHeaders, type AccessLevel, type Clock, type Config, type RateLimiter } from '../../../platform/src/index.js';
import { hashKey, keyPrefix } from '../credentials/index.js';
import { AdminKeyRequiredError, InvalidApiKeyError, MissingApiKeyError, RateLimitedError } from '../domain/errors.js';
import { dailyLimitOf, QUOTA_WINDOW_MS, quotaKey } from '../quota.js';
import { secretsEqual } from './constant-time.js';
import { KeyDirectory } from './key-directory.js';

/**
 * Authenticates X-API-Key on every route not marked public (interface.md,
 * "Authentication"), then counts the request against the key's rolling 24 h
 * quota and sets the X-RateLimit-* headers ("Limits"). The key is looked up by
 * its SHA-256 in the in-memory key directory: one hash and one map lookup.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    @Inject(CONFIG) private readonly config: Config,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(RATE_LIMITER) private readonly limiter: RateLimiter,
    private readonly directory: KeyDirectory,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const level = this.reflector.getAllAndOverride<AccessLevel>(ACCESS_LEVEL, [context.getHandler(), context.getClass()]) ?? 'key';
    if (level === 'public') return true;
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    if (this.config.authDisabled && level === 'key') return true;
    const header = request.headers['x-api-key'];
    const key = Array.isArray(header) ? header[0] : header;
    if (!key) throw new MissingApiKeyError();
    if (this.config.adminApiKey && secretsEqual(key, this.config.adminApiKey)) {
      request.principal = { kind: 'admin', account_id: null, key_prefix: keyPrefix(key) };
      return true;
    }
    if (level === 'admin') throw this.config.adminApiKey ? new InvalidApiKeyError() : new AdminKeyRequiredError();

    const now = this.clock.now();
    const record = key.length <= 256 ? this.directory.byKeyHash(hashKey(key)) : undefined;
    if (!record || (record.expires_at !== null && new Date(record.expires_at).getTime() <= now.getTime())) throw new InvalidApiKeyError();
    request.apiKey = record;
    request.principal =
      record.kind === 'personal' && record.user_id
        ? { kind: 'user', account_id: record.account_id, key_prefix: record.key_prefix, user_id: record.user_id }
        : { kind: 'key', account_id: record.account_id, key_prefix: record.key_prefix };

    const decision = await this.limiter.consume(quotaKey(record.key_id), { limit: dailyLimitOf(record.tier), windowMs: QUOTA_WINDOW_MS }, now);
    const reply = http.getResponse<FastifyReply>();
    void reply.headers({ ...rateLimitHeaders(decision) });
    if (!decision.allowed) {
      const retryAfter = Math.max(1, Math.ceil(decision.retryAfterMs / 1000));
      void reply.header('retry-after', String(retryAfter));
      throw new RateLimitedError(retryAfter);
    }
    return true;
  }
}
