import { Type } from '@sinclair/typebox';
import { defineAnswer } from '../../../../platform/src/index.js';
import { CHAIN_ENTRY_EXAMPLE, ChainEntrySchema } from '../../answer-parts.js';

/** GET /v2/banking/audit-log/export and GET /v2/admin/audit/export (export/audit-bundle.ts, AuditBundle). */
export const AuditBundleSchema = defineAnswer(
  'AuditBundle',
  Type.Object({
    format: Type.Literal('audit-bundle/1'),
    stream: Type.String({ description: 'The chain exported: access_log-<account> or access_log-platform' }),
    from: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    to: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    generated_at: Type.String({ format: 'date-time' }),
    genesis_hash: Type.String({ description: 'The prev_hash of the first entry of every chain' }),
    anchor: Type.Union([Type.Object({ seq: Type.Integer(), hash: Type.String(), token: Type.String({ description: 'The signed checkpoint (JWS) the first entry links to' }) }), Type.Null()], {
      description: 'Null when the entries start at the genesis',
    }),
    entries: Type.Array(ChainEntrySchema, { description: 'The entries in range, with the links before and after them that reach a signature' }),
    checkpoints: Type.Array(Type.Object({ kid: Type.String(), token: Type.String({ description: 'JWS (Ed25519) over a chain head; verify with /v2/.well-known/jwks.json' }) })),
    in_range: Type.Integer({ description: 'Entries in [from, to)' }),
  }),
  {
    format: 'audit-bundle/1',
    stream: 'access_log-acct_7f3a9c2e41b8d05f6a1c',
    from: '2026-11-27T00:00:00.000Z',
    to: '2026-11-28T00:00:00.000Z',
    generated_at: '2026-11-28T06:00:00.000Z',
    genesis_hash: '0000000000000000000000000000000000000000000000000000000000000000',
    anchor: null,
    entries: [CHAIN_ENTRY_EXAMPLE],
    checkpoints: [{ kid: 'ed25519-2026-11', token: 'eyJhbGciOiJFZERTQSIsImtpZCI6ImVkMjU1MTktMjAyNi0xMSJ9.eyJzZXEiOjE4NDN9.c2lnbmF0dXJl' }],
    in_range: 1,
  },
);
