import type { AccessEntry, ApiAccessRecorded } from '../../libs/audit/src/index.js';
import type { Doc, Projection } from '../../libs/platform/src/index.js';

/** One document per access event; serves /v2/admin/audit and /v2/banking/audit-log. */
export type AccessLogDoc = Doc & AccessEntry & { stream: string; seq: number };

export const accessLogProjection: Projection<AccessLogDoc> = {
  name: 'access_log',
  version: 1,
  streamPrefixes: ['access_log-'],
  handles: ['ApiAccessRecorded'],
  indexes: [
    { name: 'by_account_time', fields: ['account_id', 'at'] },
    { name: 'by_time', fields: ['at'] },
  ],
  async apply(event, collection) {
    const { data } = event as unknown as { data: ApiAccessRecorded['data'] };
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
      stream: event.streamName,
      seq: data.seq,
    }));
  },
};
