import { Type } from '@sinclair/typebox';
import { defineAnswer, Literals } from '../../../../platform/src/index.js';
import { RegisteredNoticeFields, registeredNoticeExample } from '../../http/consent-notice-parts.js';

/** PUT /v2/consent/notices/{version} (ADR 39; docs/adr/0059). */
export const ConsentNoticeRegistrationSchema = defineAnswer(
  'ConsentNoticeRegistration',
  Type.Object({
    ...RegisteredNoticeFields,
    outcome: Literals(['registered', 'unchanged'] as const),
  }),
  { ...registeredNoticeExample, outcome: 'registered' },
);
