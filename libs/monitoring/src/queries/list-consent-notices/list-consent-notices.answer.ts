import { Type } from '@sinclair/typebox';
import { defineAnswer } from '../../../../platform/src/index.js';
import { RegisteredNoticeFields, registeredNoticeExample } from '../../http/consent-notice-parts.js';

/** GET /v2/consent/notices (ADR 39; docs/adr/0059): the account's notices in registration order, without their texts. */
export const ConsentNoticeListSchema = defineAnswer(
  'ConsentNoticeList',
  Type.Object({
    items: Type.Array(Type.Object(RegisteredNoticeFields)),
    max_items: Type.Integer({ description: 'How many version and language pairs the account may register' }),
  }),
  { items: [registeredNoticeExample, { ...registeredNoticeExample, language: 'tw', sha256: '9c0b7e2f4a6d8c1e3b5a7f9d2c4e6a8b0d1f3e5c7a9b2d4f6e8c0a1b3d5f7e9c', bytes: 2011 }], max_items: 100 },
);
