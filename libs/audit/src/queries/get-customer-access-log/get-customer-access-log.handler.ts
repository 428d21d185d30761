import { Inject } from '@nestjs/common';
import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { collectionName, READ_STORE, type Range, type ReadStore } from '../../../../platform/src/index.js';
import { ACCESS_LOG_INDEXES, ACCESS_LOG_READ_MODEL, type AccessLogDoc, type AuditPage } from '../../public/access-log.read-model.js';

export interface GetCustomerAccessLog {
  account_id: string;
  customer_id: string;
  from?: string;
  to?: string;
  limit: number;
  cursor?: string;
}

/**
 * GET /v2/banking/audit-log/customers/{customer_id}: who looked at one
 * customer of the calling account — its access entries that named the
 * customer (AccessEntry.customer_id), newest first. Entries recorded before
 * customers were kept name none and are not found here.
 */
export class GetCustomerAccessLogQuery extends Query<AuditPage> {
  constructor(readonly filter: GetCustomerAccessLog) {
    super();
  }
}

@QueryHandler(GetCustomerAccessLogQuery)
export class GetCustomerAccessLogHandler implements IQueryHandler<GetCustomerAccessLogQuery> {
  constructor(@Inject(READ_STORE) private readonly readStore: ReadStore) {}

  async execute({ filter }: GetCustomerAccessLogQuery): Promise<AuditPage> {
    const collection = await this.readStore.collection<AccessLogDoc>(collectionName(ACCESS_LOG_READ_MODEL), ACCESS_LOG_INDEXES);
    const range: Range = {};
    if (filter.from) range.gte = new Date(filter.from).toISOString();
    if (filter.to) range.lt = new Date(filter.to).toISOString();
    const page = await collection.find({
      index: 'by_account_customer_time',
      equals: [filter.account_id, filter.customer_id],
      range,
      direction: 'desc',
      limit: filter.limit,
      cursor: filter.cursor,
    });
    return { items: page.items.map(({ stream: _stream, ...item }) => item), next_cursor: page.nextCursor };
  }
}
