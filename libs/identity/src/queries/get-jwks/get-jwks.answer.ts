import { Type } from '@sinclair/typebox';
import { defineAnswer } from '../../../../platform/src/index.js';

/** GET /v2/.well-known/jwks.json (ADR 39): a bare JWKS (RFC 7517), outside the envelope (decisions.md). */
export const JwksSchema = defineAnswer(
  'Jwks',
  Type.Object({
    keys: Type.Array(
      Type.Object({
        kty: Type.Literal('OKP'),
        crv: Type.Literal('Ed25519'),
        x: Type.String({ description: 'The public key, base64url' }),
        kid: Type.String(),
        alg: Type.Literal('EdDSA'),
        use: Type.Literal('sig'),
      }),
      { description: 'The active key first, then retired ones: they stay so that what they signed keeps verifying' },
    ),
  }),
  { keys: [{ kty: 'OKP', crv: 'Ed25519', x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo', kid: 'k-2026-11-01', alg: 'EdDSA', use: 'sig' }] },
);
