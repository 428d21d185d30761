import type { FastifyRequest } from 'fastify';
import { AccountKeyRequiredError } from '../domain/errors.js';
import type { KeyRecord } from '../public/key-directory.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The issued key that authenticated the request (absent for the operator key). */
    apiKey?: KeyRecord;
  }
}

/** The key record behind the request; the operator key has none and cannot be rotated or deleted here. */
export function callingKey(request: FastifyRequest): KeyRecord {
  if (!request.apiKey) throw new AccountKeyRequiredError();
  return request.apiKey;
}
