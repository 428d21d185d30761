import { collectionName, type Doc, type IndexSpec, type Range, type ReadStore } from '../../../platform/src/index.js';
import type { AccessEntry } from '../domain/access-events.js';

/** The read model behind /v2/admin/audit and /v2/banking/audit-log (built by projections/access-log). */
export const ACCESS_LOG_READ_MODEL = { name: 'access_log', version: 1 } as const;
export const ACCESS_LOG_INDEXES: IndexSpec[] = [
  { name: 'by_account_time', fields: ['account_id', 'at'] },
  { name: 'by_time', fields: ['at'] },
  // Who looked at one customer (GET /v2/banking/audit-log/customers/{customer_id}); entries naming none index under null.
  { name: 'by_account_customer_time', fields: ['account_id', 'customer_id', 'at'] },
];

/** One document per access event. */
export type AccessLogDoc = Doc & AccessEntry & { stream: string; seq: number };

export interface AccessLogQuery {
  /** One account's entries; null for the operator key and keys without an account; undefined for all. */
  account_id: string | null | undefined;
  from?: string;
  to?: string;
  limit: number;
  cursor?: string;
}

export interface AuditPage {
  /** The entries as recorded, with the event id and their place in the chain (the read model's own `stream` left out). */
  items: Array<AccessEntry & { id: string; seq: number }>;
  next_cursor: string | null;
}

/** Newest first, `from` inclusive, `to` exclusive. */
export async function findAccess(readStore: ReadStore, query: AccessLogQuery): Promise<AuditPage> {
  const collection = await readStore.collection<AccessLogDoc>(collectionName(ACCESS_LOG_READ_MODEL), ACCESS_LOG_INDEXES);
  const range: Range = {};
  if (query.from) range.gte = new Date(query.from).toISOString();
  if (query.to) range.lt = new Date(query.to).toISOString();
  const page = await collection.find({
    index: query.account_id === undefined ? 'by_time' : 'by_account_time',
    equals: query.account_id === undefined ? [] : [query.account_id],
    range,
    direction: 'desc',
    limit: query.limit,
    cursor: query.cursor,
  });
  return { items: page.items.map(({ stream: _stream, ...item }) => item), next_cursor: page.nextCursor };
}
