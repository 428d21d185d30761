import type { FastifyRequest } from 'fastify';
import { PersonalTokenRequiredError } from './domain/errors.js';

/**
 * The account of a locator caller. Every locator endpoint acts for a signed-in
 * person: a personal token (principal kind `user`). An account key or a
 * legacy key gets 403 PERSONAL_TOKEN_REQUIRED: keys live in servers and
 * integrations, and a location is shared, watched or erased by the person it
 * belongs to (docs/adr/0020). The person is their account, whichever device
 * (token) they use.
 */
export function signedInAccount(request: FastifyRequest): string {
  const principal = request.principal;
  if (principal?.kind !== 'user' || !principal.account_id) throw new PersonalTokenRequiredError();
  return principal.account_id;
}

/** Key prefix of the caller's token, for records of who asked (never the token). */
export function callerKeyPrefix(request: FastifyRequest): string {
  return request.principal?.key_prefix ?? 'unknown';
}
