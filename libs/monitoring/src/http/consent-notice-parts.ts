import { Type } from '@sinclair/typebox';

/** Schema parts of the consent-notice answers (ADR 39; docs/adr/0059). */

export const RegisteredNoticeFields = {
  version: Type.String({ description: 'Your version label of the notice' }),
  language: Type.String({ description: 'BCP 47 language tag, as first registered' }),
  sha256: Type.String({ description: 'SHA-256 (lower-case hex) of the text’s UTF-8 bytes: what grants naming this version record and sign' }),
  bytes: Type.Integer({ description: 'Length of the text in UTF-8 bytes' }),
  registered_at: Type.String({ format: 'date-time' }),
};

export const registeredNoticeExample = {
  version: 'loan-monitoring-2026-10',
  language: 'en-GH',
  sha256: '3f8a1c0e9b7d5a2f4e6c8b0a1d3f5e7c9b2a4d6f8e0c1b3a5d7f9e2c4b6a8d0f',
  bytes: 1843,
  registered_at: '2026-10-30T12:00:00.000Z',
};
