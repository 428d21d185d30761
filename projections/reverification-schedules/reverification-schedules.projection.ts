import { evolveScheduleDoc, REVERIFICATION_SCHEDULE_INDEXES, REVERIFICATION_SCHEDULES_READ_MODEL, SCHEDULE_EVENT_TYPES, type ScheduleDoc, type ScheduleEvent } from '../../libs/banking/src/index.js';
import type { Projection } from '../../libs/platform/src/index.js';

/** Every re-verification schedule, for GET /v2/verify/schedules (libs/banking/src/read-models/reverification-schedules.read-model.ts). */
export const reverificationSchedulesProjection: Projection<ScheduleDoc> = {
  name: REVERIFICATION_SCHEDULES_READ_MODEL.name,
  version: REVERIFICATION_SCHEDULES_READ_MODEL.version,
  streamPrefixes: ['reverification_schedule-'],
  handles: SCHEDULE_EVENT_TYPES,
  indexes: REVERIFICATION_SCHEDULE_INDEXES,
  async apply(event, collection) {
    const scheduleEvent = { type: event.type, data: event.data } as ScheduleEvent;
    await collection.apply(scheduleEvent.data.schedule_id, event.position, (current) => evolveScheduleDoc(current, scheduleEvent) ?? null);
  },
};
