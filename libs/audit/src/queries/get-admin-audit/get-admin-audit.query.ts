import { Query } from '@nestjs/cqrs';

export interface AuditPage {
  items: Array<Record<string, unknown>>;
  next_cursor: string | null;
}

export class GetAdminAuditQuery extends Query<AuditPage> {
  constructor(
    readonly accountId: string | undefined,
    readonly from: string | undefined,
    readonly to: string | undefined,
    readonly limit: number,
    readonly cursor: string | undefined,
  ) {
    super();
  }
}
