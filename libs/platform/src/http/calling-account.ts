import type { FastifyRequest } from 'fastify';

/**
 * The account of the caller of an endpoint that needs one (`@AccountOnly()`,
 * `@BankingOnly()`): the guard has refused every key without an account
 * before the handler runs, so a missing one is a wiring bug (a 500), never
 * the caller's fault.
 */
export function callingAccount(request: FastifyRequest): string {
  const accountId = request.principal?.account_id;
  if (!accountId) throw new Error('an account-only endpoint was reached without an account principal');
  return accountId;
}
