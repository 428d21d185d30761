import { ACCESS_LOG_INDEXES, ACCESS_LOG_READ_MODEL, type AccessLogDoc, type ApiAccessRecorded } from '../../libs/audit/src/index.js';
import type { Projection } from '../../libs/platform/src/index.js';

export type { AccessLogDoc };

/** One document per access event; serves /v2/admin/audit and /v2/banking/audit-log. */
export const accessLogProjection: Projection<AccessLogDoc> = {
  ...ACCESS_LOG_READ_MODEL,
  streamPrefixes: ['access_log-'],
  handles: ['ApiAccessRecorded'],
  indexes: ACCESS_LOG_INDEXES,
  // One write, made first: a batch of events per commit on the embedded store (issue 31).
  pipelined: true,
  async apply(event, collection) {
    const data = event.data as ApiAccessRecorded['data'];
    await collection.apply(event.id, event.position, () => ({
      id: event.id,
      account_id: data.account_id,
      key_prefix: data.key_prefix,
      principal_kind: data.principal_kind,
      method: data.method,
      path: data.path,
      status: data.status,
      client_ip: data.client_ip,
      at: data.at,
      request_id: data.request_id,
      // Only on entries that named a customer (the by_account_customer_time index finds them).
      ...(data.customer_id === undefined ? {} : { customer_id: data.customer_id }),
      stream: event.streamName,
      seq: data.seq,
    }));
  },
};
