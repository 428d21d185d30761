import { Inject } from '@nestjs/common';
import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { READ_STORE, type ReadStore } from '../../../../platform/src/index.js';
import { findAccess, type AuditPage } from '../../public/access-log.read-model.js';

export interface GetBankingAuditLog {
  account_id: string;
  from?: string;
  to?: string;
  limit: number;
  cursor?: string;
}

/** GET /v2/banking/audit-log: the calling account's own access history, newest first. */
export class GetBankingAuditLogQuery extends Query<AuditPage> {
  constructor(readonly filter: GetBankingAuditLog) {
    super();
  }
}

@QueryHandler(GetBankingAuditLogQuery)
export class GetBankingAuditLogHandler implements IQueryHandler<GetBankingAuditLogQuery> {
  constructor(@Inject(READ_STORE) private readonly readStore: ReadStore) {}

  execute({ filter: query }: GetBankingAuditLogQuery): Promise<AuditPage> {
    return findAccess(this.readStore, query);
  }
}
