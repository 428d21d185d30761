import type { FastifyRequest } from 'fastify';
import { callingAccount } from '../../platform/src/index.js';
import { OtherAccountForbiddenError } from './domain/errors.js';

/** The caller's account; an `account_id` that names another is refused (the self-service as-of and changes slices). */
export function ownAccount(request: FastifyRequest, named: string | undefined): string {
  const accountId = callingAccount(request);
  if (named !== undefined && named !== accountId) throw new OtherAccountForbiddenError();
  return accountId;
}
