import { Type } from '@sinclair/typebox';
import { defineAnswer } from '../../../platform/src/index.js';

/** One page of an access log (AuditPage): GET /v2/admin/audit and GET /v2/banking/audit-log. */
export const AccessLogPageSchema = defineAnswer(
  'AccessLogPage',
  Type.Object({
    items: Type.Array(
      Type.Object({
        id: Type.String({ description: 'The id of the ApiAccessRecorded event' }),
        account_id: Type.Union([Type.String(), Type.Null()], { description: 'Null for the operator key and keys without an account' }),
        key_prefix: Type.String({ description: 'The key or personal token that called' }),
        principal_kind: Type.String({ description: '`key`, `user` (a personal token) or `admin` (the operator key)' }),
        method: Type.String(),
        path: Type.String({ description: 'The path called, with its query string' }),
        status: Type.Integer({ description: 'The HTTP status answered' }),
        client_ip: Type.String(),
        at: Type.String({ format: 'date-time', description: 'When the request arrived' }),
        request_id: Type.String(),
        customer_id: Type.Optional(Type.String({ description: 'The customer the request named (path, query or body `customer_id`); absent when it named none' })),
        seq: Type.Integer({ description: "The entry's place in its account's hash chain (GET …/audit-log/export proves the chain whole)" }),
      }),
      { description: 'Newest first' },
    ),
    next_cursor: Type.Union([Type.String(), Type.Null()], { description: 'Send as `cursor` for the next page; null on the last' }),
  }),
  {
    items: [
      {
        id: '0b8e6f1c-3d2a-4e9b-a7c5-9f1e2d3c4b5a',
        account_id: 'acct_7f3a9c2e41b8d05f6a1c',
        key_prefix: '3f9c2a7b…',
        principal_kind: 'key',
        method: 'GET',
        path: '/v2/collections/locate?loan_id=KMA-2026-004187',
        status: 200,
        client_ip: '196.216.12.7',
        at: '2026-11-27T08:13:53.000Z',
        request_id: 'req-5f2c9e1a7b3d',
        seq: 1843,
      },
    ],
    next_cursor: 'eyJhdCI6IjIwMjYtMTEtMjdUMDg6MTM6NTMuMDAwWiJ9',
  },
);
