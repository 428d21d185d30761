import { Type } from '@sinclair/typebox';

/** Schema parts of the replay answers (ADR 39; docs/adr/0023). */
const Open = (description: string) => Type.Record(Type.String(), Type.Unknown(), { description });

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

export { Open };
