import { Inject, Injectable } from '@nestjs/common';
import { READ_STORE, type ReadStore } from '../../../../platform/src/index.js';
import { findAccess, type AuditPage } from '../../read-models/access-log.read-model.js';

export interface GetBankingAuditLog {
  account_id: string;
  from?: string;
  to?: string;
  limit: number;
  cursor?: string;
}

/** GET /v2/banking/audit-log: the calling account's own access history, newest first. */
@Injectable()
export class GetBankingAuditLogHandler {
  constructor(@Inject(READ_STORE) private readonly readStore: ReadStore) {}

  execute(query: GetBankingAuditLog): Promise<AuditPage> {
    return findAccess(this.readStore, query);
  }
}
