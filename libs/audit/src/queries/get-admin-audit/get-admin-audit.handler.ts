import { Inject } from '@nestjs/common';
import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { READ_STORE, type ReadStore } from '../../../../platform/src/index.js';
import { findAccess, type AuditPage } from '../../public/access-log.read-model.js';

export interface GetAdminAudit {
  /** `platform`: the operator key and keys without an account. */
  account_id?: string;
  from?: string;
  to?: string;
  limit: number;
  cursor?: string;
}

/** GET /v2/admin/audit: the platform-wide access log, or one account's, newest first. */
export class GetAdminAuditQuery extends Query<AuditPage> {
  constructor(readonly filter: GetAdminAudit) {
    super();
  }
}

@QueryHandler(GetAdminAuditQuery)
export class GetAdminAuditHandler implements IQueryHandler<GetAdminAuditQuery> {
  constructor(@Inject(READ_STORE) private readonly readStore: ReadStore) {}

  execute({ filter: query }: GetAdminAuditQuery): Promise<AuditPage> {
    const accountId = query.account_id === 'platform' ? null : query.account_id;
    return findAccess(this.readStore, { ...query, account_id: accountId });
  }
}
