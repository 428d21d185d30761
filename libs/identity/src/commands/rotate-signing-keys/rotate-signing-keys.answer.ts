import { Type } from '@sinclair/typebox';
import { defineAnswer, Nullable } from '../../../../platform/src/index.js';

/** POST /v2/admin/signing-keys/rotate (ADR 39): never any private key. */
export const RotationAnswerSchema = defineAnswer(
  'RotationAnswer',
  Type.Object({
    active_kid: Type.String({ description: 'The key that signs from now on' }),
    retired_kid: Nullable(Type.String()),
    rotated_at: Type.String({ format: 'date-time' }),
    keys: Type.Array(
      Type.Object({
        kid: Type.String(),
        status: Type.Union([Type.Literal('active'), Type.Literal('retired')]),
        generated_at: Type.String({ format: 'date-time' }),
        retired_at: Nullable(Type.String({ format: 'date-time' })),
      }),
    ),
  }),
  {
    active_kid: 'k-2026-11-27',
    retired_kid: 'k-2026-11-01',
    rotated_at: '2026-11-27T09:00:00.000Z',
    keys: [
      { kid: 'k-2026-11-27', status: 'active', generated_at: '2026-11-27T09:00:00.000Z', retired_at: null },
      { kid: 'k-2026-11-01', status: 'retired', generated_at: '2026-11-01T06:00:00.000Z', retired_at: '2026-11-27T09:00:00.000Z' },
    ],
  },
);
