import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { catchError, throwError, type Observable } from 'rxjs';
import { ThrottledError } from '../domain/errors.js';

/**
 * A 429 from a handler's throttle carries Retry-After like the guard's quota
 * refusal does (RFC 9110 §10.2.3): the exception filter answers the envelope,
 * this sets the header on the reply first.
 */
@Injectable()
export class RetryAfterInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(
      catchError((error: unknown) => {
        if (error instanceof ThrottledError) void context.switchToHttp().getResponse<FastifyReply>().header('retry-after', String(error.retryAfterSeconds));
        return throwError(() => error);
      }),
    );
  }
}
