import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { collectionName, READ_STORE, type Range, type ReadStore } from '../../../../platform/src/index.js';
import { GetAdminAuditQuery, type AuditPage } from './get-admin-audit.query.js';

/** Reads the access_log projection, newest first. */
@QueryHandler(GetAdminAuditQuery)
export class GetAdminAuditHandler implements IQueryHandler<GetAdminAuditQuery, AuditPage> {
  constructor(@Inject(READ_STORE) private readonly readStore: ReadStore) {}

  async execute(query: GetAdminAuditQuery): Promise<AuditPage> {
    const collection = await this.readStore.collection(collectionName({ name: 'access_log', version: 1 }));
    const range: Range = {};
    if (query.from) range.gte = new Date(query.from).toISOString();
    if (query.to) range.lt = new Date(query.to).toISOString();
    const accountId = query.accountId === 'platform' ? null : query.accountId;
    const page = await collection.find({
      index: accountId === undefined ? 'by_time' : 'by_account_time',
      equals: accountId === undefined ? [] : [accountId],
      range,
      direction: 'desc',
      limit: query.limit,
      cursor: query.cursor,
    });
    return {
      items: page.items.map(({ stream: _stream, ...item }) => item),
      next_cursor: page.nextCursor,
    };
  }
}
