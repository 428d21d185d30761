import { Type } from '@sinclair/typebox';
import { defineAnswer } from '../../../../../platform/src/index.js';
import { landmarkList, MAKOLA, OSM_ATTRIBUTION } from '../answer-parts.js';

/** GET /v2/landmarks/around (ADR 39). */
export const LandmarksAroundAnswerSchema = defineAnswer(
  'LandmarksAroundAnswer',
  landmarkList({ lat: Type.Number(), lng: Type.Number(), radius_m: Type.Number() }),
  { lat: 5.5502, lng: -0.2174, radius_m: 500, items: [MAKOLA], next_cursor: null, attribution: OSM_ATTRIBUTION },
);
