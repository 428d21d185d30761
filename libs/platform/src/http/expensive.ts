import { Readable } from 'node:stream';
import { applyDecorators, SetMetadata } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { RawJson } from './raw-json.js';
import { mergeRouteConfig } from './route-config.js';
import { headroomTick } from '../threads/slices.js';

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

/**
 * Work a turn of the event loop gives to the chunks of every yielding answer and the slices of every large body
 * being scanned (stepsInTurns) together, beyond the first in line.
 * The budget counts making the chunks, not writing them, which follows in the same turn (a loopback write of a
 * named bulk chunk cost ~60 µs on the bench machine): 2 ms rather than 4 gave the victim of the 32-key bulk attack
 * a p99 of 9.7 ms against 11.1 ms, three rounds each (docs/adr/0044).
 */
export const TURN_BUDGET_MS = 2;

/** Streams waiting for their next chunk (and jobs for their next step), served in arrival order, one each per turn at most. */
const waiting: Array<() => void> = [];
let scheduled = false;

/** Queues work for a coming turn (serveTurn). */
function enqueue(work: () => void): void {
  waiting.push(work);
  schedule();
}

function schedule(): void {
  if (scheduled) return;
  scheduled = true;
  // While the loop has no headroom and others use it, the next turn waits for a tick of the loop (docs/adr/0052).
  const tick = headroomTick();
  if (tick) void tick.then(serveTurn);
  else setImmediate(serveTurn);
}

function serveTurn(): void {
  scheduled = false;
  const deadline = performance.now() + TURN_BUDGET_MS;
  // A stream asks for its next chunk only once this one is consumed (after this call returns): one chunk per stream per turn.
  // Always the first in line, then more while the budget lasts.
  for (let first = true; waiting.length > 0 && (first || performance.now() < deadline); first = false) waiting.shift()!();
  if (waiting.length > 0) schedule();
}

/**
 * The chunks of a synchronous answer, computed a few per turn of the event
 * loop (issue 31, item 2): between two turns every request waiting on the
 * loop (a health check, another tenant's GET) gets its turn. All yielding
 * answers share one budget per turn (TURN_BUDGET_MS, and always at least one
 * chunk), served round-robin: with setImmediate per chunk, eight concurrent
 * 10,000-point bulks ran eight chunks back to back in every turn (ADR 0041).
 * For work whose data lives in this thread (a bulk call names its points from
 * the places index), where a worker thread cannot hold it.
 */
export async function* yieldingEach<T>(chunks: Iterable<T>): AsyncGenerator<T> {
  const iterator = chunks[Symbol.iterator]();
  let finished = false;
  try {
    for (;;) {
      const step = await new Promise<IteratorResult<T>>((resolve, reject) => {
        enqueue(() => {
          try {
            resolve(iterator.next());
          } catch (error) {
            reject(error as Error);
          }
        });
      });
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

/**
 * Runs a synchronous job that pauses (yields) between slices of its work, a
 * slice per turn of the event loop at most, under the budget per turn that
 * yieldingEach's answers share, and resolves with the generator's return
 * value. A large request body is scanned this way (docs/adr/0051).
 */
export function stepsInTurns<R>(steps: Iterator<unknown, R, undefined>): Promise<R> {
  return new Promise<R>((resolve, reject) => {
    const step = () => {
      let next: IteratorResult<unknown, R>;
      try {
        next = steps.next();
      } catch (error) {
        reject(error as Error);
        return;
      }
      // Queued again once this turn's serveTurn has returned, as a reader asks for its next chunk: one slice per turn.
      if (next.done) resolve(next.value);
      else queueMicrotask(() => enqueue(step));
    };
    enqueue(step);
  });
}

/** A finished answer's chunk: 16 KiB is ~0.2 ms of a loopback write on the 2-core bench machine. */
export const ANSWER_CHUNK_BYTES = 16 * 1024;

/**
 * A finished answer's bytes (made on a thread) as a stream of ANSWER_CHUNK_BYTES
 * chunks, one per stream per turn of the event loop under yieldingEach's
 * shared budget (docs/adr/0044): a 400 kB answer handed to the socket whole
 * held the loop ~3 ms in one writev, every health check waiting behind it.
 */
export function yieldingBytes(bytes: Buffer, chunkBytes = ANSWER_CHUNK_BYTES): Readable {
  return Readable.from(yieldingEach(slicesOf(bytes, chunkBytes)), { objectMode: false });
}

function* slicesOf(bytes: Buffer, size: number): Generator<Buffer> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, Math.min(bytes.length, at + size));
}
