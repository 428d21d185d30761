import { Inject, Injectable } from '@nestjs/common';
import { READ_STORE, type ReadStore } from '../../../../platform/src/index.js';
import { findAccess, type AuditPage } from '../../read-models/access-log.read-model.js';

export interface GetAdminAudit {
  /** `platform`: the operator key and keys without an account. */
  account_id?: string;
  from?: string;
  to?: string;
  limit: number;
  cursor?: string;
}

/** GET /v2/admin/audit: the platform-wide access log, or one account's, newest first. */
@Injectable()
export class GetAdminAuditHandler {
  constructor(@Inject(READ_STORE) private readonly readStore: ReadStore) {}

  execute(query: GetAdminAudit): Promise<AuditPage> {
    const accountId = query.account_id === 'platform' ? null : query.account_id;
    return findAccess(this.readStore, { ...query, account_id: accountId });
  }
}
