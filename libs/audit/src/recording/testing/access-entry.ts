import type { AccessEntry } from '../../domain/access-events.js';

/** An authenticated `GET /v2/me` of `account` (null: the platform chain), as the recorder specs record it. */
export function accessEntry(account: string | null, requestId: string): AccessEntry {
  return {
    account_id: account,
    key_prefix: 'abcd1234…',
    principal_kind: 'key',
    method: 'GET',
    path: '/v2/me',
    status: 200,
    client_ip: '203.0.113.9',
    at: new Date().toISOString(),
    request_id: requestId,
  };
}
