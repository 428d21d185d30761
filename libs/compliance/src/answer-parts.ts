import { Type } from '@sinclair/typebox';

/** One entry of an access chain as recorded (ApiAccessRecorded's data): the as-of history and the export bundle carry them (ADR 39). */
export const ChainEntrySchema = Type.Object({
  account_id: Type.Union([Type.String(), Type.Null()], { description: 'Null on the platform chain (the operator key, keys without an account)' }),
  key_prefix: Type.String(),
  principal_kind: Type.String({ description: '`key`, `user` (a personal token) or `admin` (the operator key)' }),
  method: Type.String(),
  path: Type.String(),
  status: Type.Integer(),
  client_ip: Type.String(),
  at: Type.String({ format: 'date-time' }),
  request_id: Type.String(),
  customer_id: Type.Optional(Type.String({ description: 'The customer the request named, when it named one (hashed with the rest of the entry)' })),
  seq: Type.Integer({ description: 'Place in the chain, from 0' }),
  prev_hash: Type.String({ description: "The previous entry's hash (the genesis hash for seq 0)" }),
  hash: Type.String({ description: 'SHA-256 over prev_hash, seq and the entry in canonical JSON' }),
});

export const CHAIN_ENTRY_EXAMPLE = {
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
  prev_hash: '9a3c5e7f1b2d4f6a8c0e2b4d6f8a1c3e5b7d9f0a2c4e6b8d1f3a5c7e9b0d2f4a',
  hash: 'e1c3a5f7b9d2e4f6a8c0b2d4e6f8a0c2e4b6d8f0a1c3e5b7d9f2a4c6e8b0d1f3',
};

/** An object whose shape belongs to another context (each contributor's state, a change's summary). */
export const Open = (description: string) => Type.Record(Type.String(), Type.Unknown(), { description });

export const ChangeSchema = Type.Object({
  at: Type.String({ format: 'date-time' }),
  context: Type.String(),
  stream: Type.String(),
  type: Type.String({ description: 'The event type' }),
  summary: Open('Fields safe to show (no secrets, no password or token hashes); per event type'),
});

export const OperatorActionSchema = Type.Object({
  at: Type.String({ format: 'date-time' }),
  method: Type.String(),
  path: Type.String(),
  status: Type.Integer(),
  key_prefix: Type.String(),
  request_id: Type.String(),
});

export const changeExample = {
  at: '2026-11-20T10:02:11.000Z',
  context: 'accounts',
  stream: 'api_key-ak_3f9c',
  type: 'ApiKeyIssued',
  summary: { key_prefix: 'lk_3f9c…', tier: 'enterprise' },
};

