import { type ArgumentsHost, Catch, Controller, type ExceptionFilter, Get, Inject, Injectable, Res, UseFilters } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { CONFIG, type Config } from '../config/config.js';
import { DomainError } from '../errors.js';
import { AdminOnly } from '../http/access.js';
import { RawResponse } from '../http/envelope.js';
import { EnvelopeExceptionFilter } from '../http/exception.filter.js';
import { metricsRegistry } from './metrics.js';

class MetricsKeyRefusedError extends DomainError {
  constructor(
    readonly code: string,
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * /metrics answered a request without a key as it answers a wrong one (401
 * INVALID_API_KEY; 403 ADMIN_KEY_REQUIRED when no operator key is
 * configured) before it went through the guard, and scrapers rely on it; the
 * guard's MISSING_API_KEY is mapped back here. Every other refusal is the
 * guard's own.
 */
@Catch()
@Injectable()
class MetricsRefusals implements ExceptionFilter {
  private readonly envelope = new EnvelopeExceptionFilter();

  constructor(@Inject(CONFIG) private readonly config: Config) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    if (exception instanceof DomainError && exception.code === 'MISSING_API_KEY') {
      exception = this.config.adminApiKey
        ? new MetricsKeyRefusedError('INVALID_API_KEY', 401, 'metrics need the admin key in X-API-Key')
        : new MetricsKeyRefusedError('ADMIN_KEY_REQUIRED', 403, 'metrics need the admin key, and none is configured (ADMIN_API_KEY)');
    }
    this.envelope.catch(exception, host);
  }
}

/**
 * `GET /metrics` (Prometheus text format, ADR 0028): route names, volumes and
 * lags are operator information, so it has the admin endpoints' access level
 * (`@AdminOnly()`, the API-key guard) and is recorded in the access audit as
 * every authenticated request is.
 */
@ApiExcludeController()
@Controller()
@UseFilters(MetricsRefusals)
export class MetricsController {
  @Get('metrics')
  @AdminOnly()
  @RawResponse()
  async metrics(@Res() reply: FastifyReply): Promise<void> {
    const body = await metricsRegistry.metrics();
    await reply.header('content-type', metricsRegistry.contentType).header('cache-control', 'no-store').send(body);
  }
}
