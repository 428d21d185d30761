import type { FastifyRequest } from 'fastify';

/** The account of an `@AccountOnly()` endpoint's caller: the guard has refused every key without one. */
export function callingAccount(request: FastifyRequest): string {
  const accountId = request.principal?.account_id;
  if (!accountId) throw new Error('an account-only endpoint was reached without an account principal');
  return accountId;
}
