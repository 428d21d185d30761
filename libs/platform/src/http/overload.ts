import { getHeapStatistics } from 'node:v8';
import underPressure from '@fastify/under-pressure';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config/config.js';
import { failure } from './envelope.js';

/** What never sheds: the health checks (an orchestrator must see the process) and the metrics (an operator must see why). */
const EXEMPT = /^\/(health(\/(ready|live))?|metrics)(\?|$)/;

/**
 * Load shedding (issue 48, item 3): @fastify/under-pressure samples the event
 * loop's delay and the V8 heap in use; while either is over its threshold
 * (config.overload), every request but EXEMPT is answered 503 SERVICE_BUSY
 * with Retry-After in the envelope, in the first onRequest hook: before the
 * key is looked up or the body read. A client retries later, or on another
 * api process behind the load balancer.
 */
export async function shedOverload(fastify: FastifyInstance, overload: Config['overload']): Promise<void> {
  const maxHeapUsedBytes = overload.heapUsedMb > 0 ? overload.heapUsedMb * 1024 * 1024 : Math.floor(getHeapStatistics().heap_size_limit * 0.9);
  await fastify.register(underPressure, {
    maxEventLoopDelay: overload.eventLoopDelayMs,
    maxHeapUsedBytes,
    retryAfter: overload.retryAfterSeconds,
    // Answers nothing for a request that goes on, and the body to send for one that is shed (the plugin sends a
    // non-null result and stops there; its types say void).
    pressureHandler: ((request: FastifyRequest, reply: FastifyReply, type: string) => {
      if (EXEMPT.test(request.url)) return undefined;
      void reply.status(503).header('retry-after', String(overload.retryAfterSeconds)).header('x-request-id', request.id);
      const what = type === 'heapUsedBytes' ? 'memory' : 'event loop';
      return failure('SERVICE_BUSY', `the service is overloaded (${what}); retry in ${overload.retryAfterSeconds} s`, { request_id: String(request.id) });
    }) as unknown as (request: FastifyRequest, reply: FastifyReply, type: string) => void,
  });
}
