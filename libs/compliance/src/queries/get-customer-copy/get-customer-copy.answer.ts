import { Type } from '@sinclair/typebox';
import { defineAnswer, Nullable } from '../../../../platform/src/index.js';
import { Open } from '../../answer-parts.js';

const Page = <T extends ReturnType<typeof Type.Array>>(items: T, withTruncated: boolean) =>
  withTruncated
    ? Type.Object({ items, cursor: Nullable(Type.String()), truncated: Type.Boolean(), next_cursor: Nullable(Type.String()) })
    : Type.Object({ items, unreadable: Type.Integer({ description: 'Stored events sealed under a destroyed key: counted, never shown' }), cursor: Nullable(Type.String()), next_cursor: Nullable(Type.String()) });

/** POST /v2/consent/access-request (ADR 39; docs/adr/0023): everything held about one customer, signed. */
export const CustomerCopySchema = defineAnswer(
  'CustomerCopy',
  Type.Object({
    document: Type.Object({
      format: Type.Literal('customer-copy/1'),
      account_id: Type.String(),
      customer_id: Type.String(),
      generated_at: Type.String({ format: 'date-time' }),
      consents: Type.Array(Type.Object({ type: Type.String(), at: Type.String({ format: 'date-time' }), receipt: Type.Unknown(), data: Open('The consent event as stored') })),
      erasure: Nullable(Type.Object({ erased_at: Type.String({ format: 'date-time' }), erased_by: Type.String(), events_erased: Type.Integer() })),
      location_history: Page(Type.Array(Open('A ping, drift or geofence event, as opened')), false),
      verifications: Page(Type.Array(Open('A verification and its certificate')), true),
      webhook_deliveries: Page(Type.Array(Type.Unknown()), true),
    }),
    kid: Type.String(),
    jws: Type.String({ description: 'Compact JWS (EdDSA) whose payload is `document`; verify with GET /v2/.well-known/jwks.json alone' }),
  }),
  {
    document: {
      format: 'customer-copy/1',
      account_id: 'acct_7f3a9c1e',
      customer_id: 'cust-8841',
      generated_at: '2026-12-16T09:00:00.000Z',
      consents: [{ type: 'ConsentGranted', at: '2026-11-27T09:00:00.000Z', receipt: null, data: { purpose: 'loan_collections', scope: ['location'] } }],
      erasure: { erased_at: '2026-12-15T10:05:00.000Z', erased_by: 'lk_3f9c…', events_erased: 2880 },
      location_history: { items: [], unreadable: 2880, cursor: null, next_cursor: null },
      verifications: { items: [], cursor: null, truncated: false, next_cursor: null },
      webhook_deliveries: { items: [], cursor: null, truncated: false, next_cursor: null },
    },
    kid: 'k-2026-11-01',
    jws: 'eyJhbGciOiJFZERTQSIsImtpZCI6ImstMjAyNi0xMS0wMSJ9.eyJmb3JtYXQiOiJjdXN0b21lci1jb3B5LzEifQ.c2lnbmF0dXJl',
  },
);
