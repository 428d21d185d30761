import { Type } from '@sinclair/typebox';
import { defineAnswer } from '../../../../platform/src/index.js';
import { OrNull } from '../../answer-parts.js';
import { SCHEDULE_EXAMPLE, ScheduleObject } from '../../reverification/schedule.answer.js';

/** GET /v2/verify/schedules. */
export const ReverificationSchedulePageSchema = defineAnswer(
  'ReverificationSchedulePage',
  Type.Object({
    items: Type.Array(ScheduleObject, { description: 'Newest first' }),
    next_cursor: OrNull(Type.String({ description: 'Send as `cursor` for the next page; null on the last' })),
  }),
  { items: [SCHEDULE_EXAMPLE], next_cursor: null },
);
