import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Observable } from 'rxjs';

const RAW = Symbol('raw response');

/**
 * Marks the request of a `@RawResponse()` handler, so the adapter sends its
 * answer as it is. The envelope itself is put on in `wrapInEnvelope`, called
 * by the HTTP adapter for every handler result: a global interceptor did it
 * before, and cost every request an RxJS chain and an async scope (ADR 0028);
 * now only the few raw routes run an interceptor.
 */
@Injectable()
export class RawResponseMarker implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    (context.switchToHttp().getRequest<object>() as { [RAW]?: true })[RAW] = true;
    return next.handle();
  }
}

/** `{ success: true, data }` around a handler's result, unless its handler is raw or it answered nothing. */
export function wrapInEnvelope(request: object | undefined, body: unknown): unknown {
  if (body === undefined || (request as { [RAW]?: true } | undefined)?.[RAW]) return body;
  return { success: true, data: body };
}
