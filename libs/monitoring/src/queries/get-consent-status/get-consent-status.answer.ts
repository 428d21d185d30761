import { Type } from '@sinclair/typebox';
import { defineAnswer } from '../../../../platform/src/index.js';
import { consentStatusExample, ConsentStatusFields } from '../../http/consent-answer-parts.js';

/** GET /v2/consent/status (ADR 39): every field present, null where the state has none. */
export const ConsentStatusSchema = defineAnswer('ConsentStatus', Type.Object(ConsentStatusFields), consentStatusExample);
