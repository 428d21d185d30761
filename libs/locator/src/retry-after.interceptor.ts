import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { catchError, throwError, type Observable } from 'rxjs';
import { DomainError } from '../../platform/src/index.js';

/**
 * A refusal that says when to come back (429 on wrong share codes) carries
 * Retry-After (RFC 9110 §10.2.3): the exception filter answers the envelope,
 * this sets the header on the reply first.
 */
@Injectable()
export class RetryAfterInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(
      catchError((error: unknown) => {
        const seconds = error instanceof DomainError ? (error as { retryAfterSeconds?: unknown }).retryAfterSeconds : undefined;
        if (typeof seconds === 'number') void context.switchToHttp().getResponse<FastifyReply>().header('retry-after', String(seconds));
        return throwError(() => error);
      }),
    );
  }
}
