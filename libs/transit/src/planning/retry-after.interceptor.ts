import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { catchError, throwError, type Observable } from 'rxjs';
import { TransitBusyError } from '../domain/errors.js';

/**
 * A 503 TRANSIT_BUSY says when to come back (RFC 9110 §10.2.3): the exception
 * filter answers the envelope, this sets Retry-After on the reply first.
 */
@Injectable()
export class TransitRetryAfterInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(
      catchError((error: unknown) => {
        if (error instanceof TransitBusyError) void context.switchToHttp().getResponse<FastifyReply>().header('retry-after', String(error.retryAfterSeconds));
        return throwError(() => error);
      }),
    );
  }
}
