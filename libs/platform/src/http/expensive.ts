import { applyDecorators, SetMetadata } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import type { FastifyRequest } from 'fastify';

/**
 * Issue 31, item 2: a keyed route whose one request does the work of many.
 * The access guard (accounts) reads this declaration:
 *
 * - `items(body)`: what the request counts for against the key's daily quota
 *   (a bulk call counts its items; at least 1). Read before validation, so it
 *   must accept any body; what is not an array of items counts 1.
 * - the request holds one of its key's EXPENSIVE_CONCURRENCY_PER_KEY slots in
 *   this process until its answer is sent; over it, 429 RATE_LIMITED with
 *   Retry-After. `when(body)` narrows that to some bodies (isochrone fences).
 */
export interface ExpensiveRoute {
  items?: (body: unknown) => number;
  when?: (body: unknown) => boolean;
}

export const EXPENSIVE_ROUTE = 'http:expensive';
const EXPENSIVE_CONFIG = 'expensive';
/** Nest metadata for the guard; a Fastify route config too, so a key already at its cap is refused before its body is read. */
export const Expensive = (route: ExpensiveRoute = {}) => applyDecorators(SetMetadata(EXPENSIVE_ROUTE, route), RouteConfig({ [EXPENSIVE_CONFIG]: route.when === undefined }));

/**
 * A batch route that counts its items against the quota (as `@Expensive`'s
 * `items`) but holds no concurrency slot: its batches are a client's ordinary
 * traffic (a lender's devices sending pings), bounded by their size and paid
 * for by their items.
 */
export const CountsItems = (items: (body: unknown) => number) => SetMetadata(EXPENSIVE_ROUTE, { items, when: () => false } satisfies ExpensiveRoute);

/** Whether every request to the route is expensive (known before the body is read: no `when`). */
export function isExpensiveRoute(request: FastifyRequest): boolean {
  return (request.routeOptions?.config as { [EXPENSIVE_CONFIG]?: boolean } | undefined)?.[EXPENSIVE_CONFIG] === true;
}

/**
 * `items` for a body whose items are the array in `field`: its length, or 1
 * when there is no such array or it holds more than `max` (validation refuses
 * that batch whole, as any invalid request, which counts 1).
 */
export function itemsIn(field: string, max: number): (body: unknown) => number {
  return (body) => {
    const items = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[field] : undefined;
    return Array.isArray(items) && items.length <= max ? Math.max(1, items.length) : 1;
  };
}

/**
 * The chunks of a synchronous answer, handed out one per turn of the event
 * loop (issue 31, item 2): between two chunks every request waiting on the
 * loop (a health check, another tenant's GET) gets its turn, so a 10,000-item
 * bulk answer holds the loop for one chunk's work at a time (256 items, a few
 * ms), not for the whole batch. For work whose data lives in this thread (a
 * bulk call names points from the places index), where a worker thread cannot
 * hold it.
 */
export async function* yieldingEach<T>(chunks: Iterable<T>): AsyncGenerator<T> {
  for (const chunk of chunks) {
    yield chunk;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}
