import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../errors.js';
import { failure } from './envelope.js';

const CODES_BY_STATUS: Record<number, string> = {
  400: 'INVALID_PARAM',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  406: 'NOT_ACCEPTABLE',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
  501: 'NOT_IMPLEMENTED',
  503: 'SERVICE_UNAVAILABLE',
};

/**
 * The one place errors become HTTP answers: typed domain errors carry their own
 * code and status (and `details`, sent as `error.details` when set, and
 * `retryAfterSeconds`, sent as Retry-After); Nest and Fastify errors (bad JSON, body too large) map by
 * status; anything else is a 500 whose details go to the log, not the client.
 */
@Catch()
export class EnvelopeExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('http');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    const request = http.getRequest<FastifyRequest>();
    const { status, code, message, field, details } = this.describe(exception);
    if (status >= 500) {
      this.logger.error({ msg: 'request failed', request_id: request.id, err: errorForLog(exception) });
    }
    const retryAfter = exception instanceof DomainError ? exception.retryAfterSeconds : undefined;
    if (typeof retryAfter === 'number' && Number.isFinite(retryAfter)) void reply.header('retry-after', String(Math.max(1, Math.ceil(retryAfter))));
    void reply
      .status(status)
      .header('content-type', 'application/json; charset=utf-8')
      .send(failure(code, message, { ...(field ? { field } : {}), ...(details ? { details } : {}), request_id: String(request.id) }));
  }

  private describe(exception: unknown): { status: number; code: string; message: string; field?: string; details?: Readonly<Record<string, unknown>> } {
    if (exception instanceof DomainError) {
      return { status: exception.status, code: exception.code, message: exception.message, field: exception.field, details: exception.details };
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      // Nest wraps Fastify's own errors (body parsing, size, media type) and keeps them as the cause.
      const cause = exception.cause as { code?: unknown } | undefined;
      if (typeof cause?.code === 'string' && cause.code.startsWith('FST_')) return fastifyClientError(status, cause.code, exception.message);
      const body = exception.getResponse();
      const fromBody = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
      const code = typeof fromBody.code === 'string' ? fromBody.code : (CODES_BY_STATUS[status] ?? `HTTP_${status}`);
      const message = typeof fromBody.message === 'string' ? fromBody.message : exception.message;
      return { status, code, message, field: typeof fromBody.field === 'string' ? fromBody.field : undefined };
    }
    const fastifyError = exception as { statusCode?: number; code?: string; message?: string };
    if (typeof fastifyError?.statusCode === 'number' && fastifyError.statusCode >= 400 && fastifyError.statusCode < 500) {
      // Fastify's JSON body parser fails with a bare SyntaxError carrying statusCode 400.
      const code = exception instanceof SyntaxError ? 'FST_ERR_CTP_INVALID_JSON_BODY' : fastifyError.code;
      return fastifyClientError(fastifyError.statusCode, code, fastifyError.message ?? 'bad request');
    }
    return { status: HttpStatus.INTERNAL_SERVER_ERROR, code: 'INTERNAL_ERROR', message: 'internal error' };
  }
}

/** Fastify's own client errors (body parsing, size, media type), renamed to our codes. */
export function fastifyClientError(status: number, fastifyCode: string | undefined, message: string) {
  switch (fastifyCode) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { status: 400, code: 'INVALID_JSON', message: 'request body is not valid JSON', field: 'body' };
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { status: 413, code: 'PAYLOAD_TOO_LARGE', message: 'request body is too large', field: 'body' };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE', message: 'send application/json', field: 'content-type' };
    default:
      return { status, code: CODES_BY_STATUS[status] ?? `HTTP_${status}`, message };
  }
}

function errorForLog(exception: unknown): Record<string, unknown> {
  if (exception instanceof Error) return { name: exception.name, message: exception.message, stack: exception.stack };
  return { value: String(exception) };
}
