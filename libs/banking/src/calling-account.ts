import type { FastifyRequest } from 'fastify';

/** The account of a `@BankingOnly()` endpoint's caller: the guard has refused every key without banking access. */
export function callingAccount(request: FastifyRequest): string {
  const accountId = request.principal?.account_id;
  if (!accountId) throw new Error('a banking endpoint was reached without an account principal');
  return accountId;
}
