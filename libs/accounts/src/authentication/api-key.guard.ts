import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { ACCESS_LEVEL, CONFIG, keyPrefix, type AccessLevel, type Config } from '../../../platform/src/index.js';
import { AdminKeyRequiredError, InvalidApiKeyError, MissingApiKeyError } from '../domain/errors.js';
import { secretsEqual } from './constant-time.js';

/**
 * Authenticates X-API-Key on every route not marked public. Until account keys
 * exist, the only key is the operator's ADMIN_API_KEY.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    const level = this.reflector.getAllAndOverride<AccessLevel>(ACCESS_LEVEL, [context.getHandler(), context.getClass()]) ?? 'key';
    if (level === 'public') return true;
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    if (this.config.authDisabled && level === 'key') return true;
    const header = request.headers['x-api-key'];
    const key = Array.isArray(header) ? header[0] : header;
    if (!key) throw new MissingApiKeyError();
    if (this.config.adminApiKey && secretsEqual(key, this.config.adminApiKey)) {
      request.principal = { kind: 'admin', account_id: null, key_prefix: keyPrefix(key) };
      return true;
    }
    if (level === 'admin') throw this.config.adminApiKey ? new InvalidApiKeyError() : new AdminKeyRequiredError();
    throw new InvalidApiKeyError();
  }
}
