import { Type } from '@sinclair/typebox';
import { Literals, Nullable } from '../../../platform/src/index.js';
import { CONSENT_CHANNELS, CONSENT_PURPOSES, PROOF_KINDS } from '../domain/consent.js';

/** Schema parts of the consent answers (ADR 39; docs/adr/0032). */

export const Purpose = Literals(CONSENT_PURPOSES);

export const ConsentStatusFields = {
  customer_id: Type.String(),
  status: Literals(['none', 'granted', 'revoked'] as const),
  consent_id: Nullable(Type.String({ description: 'The grant’s id (the receipts’ consentReceiptID)' })),
  purpose: Nullable(Purpose),
  scope: Nullable(Type.Array(Type.String())),
  notice: Nullable(
    Type.Object(
      { version: Type.String(), sha256: Nullable(Type.String({ description: 'SHA-256 (hex) of the notice’s exact text' })), language: Type.String() },
      { description: 'The notice the customer saw; `unspecified` for grants recorded before notices were captured' },
    ),
  ),
  channel: Nullable(Literals(CONSENT_CHANNELS)),
  captured_at: Nullable(Type.String({ format: 'date-time', description: 'When the customer agreed, by the capturing channel’s clock' })),
  proof: Nullable(Type.Object({ kind: Literals(PROOF_KINDS), reference: Type.String() }, { description: 'As supplied; not verified by the service' })),
  granted_at: Nullable(Type.String({ format: 'date-time' })),
  revoked_at: Nullable(Type.String({ format: 'date-time' })),
  data_erased_at: Nullable(Type.String({ format: 'date-time' })),
};

export const ConsentReceiptSchema = Nullable(
  Type.Object(
    {
      token: Type.String({ description: 'Compact JWS (EdDSA), claims after the Kantara Consent Receipt v1.1; verify with scripts/verify-consent-receipt.mjs' }),
      kid: Type.String(),
      typ: Type.String(),
      jwks_url: Type.String(),
    },
    { description: 'Null only in a process that cannot sign (no identity context)' },
  ),
);

export const consentStatusExample = {
  customer_id: 'cust-8841',
  status: 'granted' as const,
  consent_id: 'cr_0b6f2d8e4a1c4e7f9d3b5a7c9e1f3a5b',
  purpose: 'loan_collections' as const,
  scope: ['location'],
  notice: { version: 'loan-monitoring-2026-10', sha256: '3f8a1c0e9b7d5a2f4e6c8b0a1d3f5e7c9b2a4d6f8e0c1b3a5d7f9e2c4b6a8d0f', language: 'en-GH' },
  channel: 'app' as const,
  captured_at: '2026-11-27T08:58:10.000Z',
  proof: { kind: 'otp' as const, reference: 'otp-7731-20261127' },
  granted_at: '2026-11-27T09:00:00.000Z',
  revoked_at: null,
  data_erased_at: null,
};

export const receiptExample = {
  token: 'eyJhbGciOiJFZERTQSIsImtpZCI6ImstMjAyNi0xMS0wMSIsInR5cCI6ImNvbnNlbnQtcmVjZWlwdCtqd3QifQ.eyJjb25zZW50UmVjZWlwdElEIjoiY3JfMGI2ZiJ9.c2lnbmF0dXJl',
  kid: 'k-2026-11-01',
  typ: 'consent-receipt+jwt',
  jwks_url: 'https://api.example.com.gh/v2/.well-known/jwks.json',
};

