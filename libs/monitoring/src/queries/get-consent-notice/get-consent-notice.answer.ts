import { Type } from '@sinclair/typebox';
import { defineAnswer } from '../../../../platform/src/index.js';
import { RegisteredNoticeFields, registeredNoticeExample } from '../../http/consent-notice-parts.js';

/** GET /v2/consent/notices/{version} (ADR 39; docs/adr/0059): the version's languages with their texts. */
export const ConsentNoticeTextsSchema = defineAnswer(
  'ConsentNoticeTexts',
  Type.Object({
    version: Type.String(),
    items: Type.Array(Type.Object({ ...RegisteredNoticeFields, text: Type.String({ description: 'The exact text registered; its UTF-8 bytes hash to `sha256`' }) })),
  }),
  {
    version: registeredNoticeExample.version,
    items: [{ ...registeredNoticeExample, text: 'Ama Lending will use your phone’s location to support the collection of your loan until you revoke your consent.' }],
  },
);
