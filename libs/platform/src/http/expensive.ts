import { Readable } from 'node:stream';
import { applyDecorators, SetMetadata } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { RawJson } from './raw-json.js';
import { mergeRouteConfig } from './route-config.js';

/**
 * Issue 31, item 2: a keyed route whose one request does the work of many.
 * The access guard (accounts) reads this declaration:
 *
 * - `items(body)`: what the request counts for against the key's daily quota
 *   (a bulk call counts its items; at least 1). Read before validation, so it
 *   must accept any body; what is not an array of items counts 1.
 * - the request holds one of its key's EXPENSIVE_CONCURRENCY_PER_KEY slots
 *   (shared by the api processes through Redis) until its answer is sent;
 *   over it, 429 RATE_LIMITED with Retry-After, before the body is read.
 *   `when(body)` narrows that to some bodies (isochrone fences), decided
 *   once the body is read.
 */
export interface ExpensiveRoute {
  items?: (body: unknown) => number;
  when?: (body: unknown) => boolean;
}

export const EXPENSIVE_ROUTE = 'http:expensive';
const EXPENSIVE_CONFIG = 'expensive';
/** Nest metadata for the guard; a Fastify route config too, so a key already at its cap is refused before its body is read. */
export const Expensive = (route: ExpensiveRoute = {}) => applyDecorators(SetMetadata(EXPENSIVE_ROUTE, route), mergeRouteConfig({ [EXPENSIVE_CONFIG]: route.when === undefined }));

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
    // A body the route takes unparsed (@RawJsonBody) is counted as its bytes spell the array (ADR 0041).
    if (body instanceof RawJson) {
      const length = body.arrayLength(field);
      return length !== undefined && length <= max ? Math.max(1, length) : 1;
    }
    const items = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[field] : undefined;
    return Array.isArray(items) && items.length <= max ? Math.max(1, items.length) : 1;
  };
}

/** The next turn of the event loop: what waits on it (a health check, another tenant's request) goes first. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The chunks of a synchronous answer, one per turn of the event loop: between
 * two chunks every request waiting on the loop gets its turn. For work whose
 * data lives in this thread (a bulk call names its points from the places
 * index), where a worker thread cannot hold it.
 */
export async function* yieldingEach<T>(chunks: Iterable<T>): AsyncGenerator<T> {
  const iterator = chunks[Symbol.iterator]();
  let finished = false;
  try {
    for (;;) {
      await nextTurn();
      const step = iterator.next();
      if (step.done) {
        finished = true;
        return;
      }
      yield step.value;
    }
  } finally {
    // A consumer that stops early (the client went away) closes the source.
    if (!finished) iterator.return?.();
  }
}

/** Runs a synchronous job that yields between slices of its work, a slice per turn of the event loop, and resolves with its return value. */
export async function stepsInTurns<R>(steps: Iterator<unknown, R, undefined>): Promise<R> {
  for (;;) {
    await nextTurn();
    const next = steps.next();
    if (next.done) return next.value;
  }
}

/** A finished answer's chunk: 16 KiB is ~0.2 ms of a loopback write on the 2-core bench machine. */
export const ANSWER_CHUNK_BYTES = 16 * 1024;

/**
 * A finished answer's bytes (made on a thread) as a stream of ANSWER_CHUNK_BYTES
 * chunks, one per turn of the event loop (docs/adr/0044): a 400 kB answer
 * handed to the socket whole held the loop ~3 ms in one writev.
 */
export function yieldingBytes(bytes: Buffer, chunkBytes = ANSWER_CHUNK_BYTES): Readable {
  return Readable.from(yieldingEach(slicesOf(bytes, chunkBytes)), { objectMode: false });
}

function* slicesOf(bytes: Buffer, size: number): Generator<Buffer> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, Math.min(bytes.length, at + size));
}
