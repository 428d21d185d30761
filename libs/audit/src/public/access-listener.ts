import type { FastifyReply, FastifyRequest } from 'fastify';
import { CALLER_ID, type ResponseListener } from '../../../platform/src/index.js';
import type { AccessEntry } from '../domain/access-events.js';
import type { AccessRecorder } from './access-recorder.js';

/** Records every authenticated request before its response leaves (see AccessRecorder). */
export function accessListener(recorder: AccessRecorder): ResponseListener {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const principal = request.principal;
    if (!principal) return;
    const started = request.receivedAt;
    const entry: AccessEntry = {
      account_id: principal.account_id,
      key_prefix: principal.key_prefix,
      principal_kind: principal.kind,
      method: request.method,
      path: request.url.split('?')[0],
      status: reply.statusCode,
      client_ip: request.ip,
      at: new Date(started ?? Date.now()).toISOString(),
      request_id: String(request.id),
    };
    const customer = namedCustomer(request);
    // Only when named: an absent field keeps the entry (and its hash) as entries were before customers were kept.
    if (customer !== undefined) entry.customer_id = customer;
    await recorder.record(entry);
  };
}

/** Pings a batch may hold (the batch route's own limit): a longer `pings` array is not looked through. */
const MAX_BATCH_PINGS = 1000;

/**
 * The customer a request named, for "who looked at this customer": the
 * `customer_id` of its path, else of its query, else of its JSON body, else
 * the one customer every ping of a `pings` batch names. A value that is not a
 * customer id (CALLER_ID) names nobody; so does a batch naming several.
 */
export function namedCustomer(request: Pick<FastifyRequest, 'params' | 'query' | 'body'>): string | undefined {
  for (const source of [request.params, request.query, request.body]) {
    const value = fieldOf(source, 'customer_id');
    if (value !== undefined) return typeof value === 'string' && CALLER_ID.test(value) ? value : undefined;
  }
  const pings = fieldOf(request.body, 'pings');
  if (!Array.isArray(pings) || pings.length === 0 || pings.length > MAX_BATCH_PINGS) return undefined;
  const first = fieldOf(pings[0], 'customer_id');
  if (typeof first !== 'string' || !CALLER_ID.test(first)) return undefined;
  for (let index = 1; index < pings.length; index++) if (fieldOf(pings[index], 'customer_id') !== first) return undefined;
  return first;
}

function fieldOf(source: unknown, field: string): unknown {
  if (source === null || typeof source !== 'object' || Array.isArray(source) || Buffer.isBuffer(source)) return undefined;
  return Object.hasOwn(source, field) ? (source as Record<string, unknown>)[field] : undefined;
}
