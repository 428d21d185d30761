import {
  eraseScheduleDoc,
  evolveScheduleDoc,
  REVERIFICATION_SCHEDULE_INDEXES,
  REVERIFICATION_SCHEDULES_READ_MODEL,
  SCHEDULE_EVENT_TYPES,
  type ScheduleDoc,
  type ScheduleEvent,
} from '../../libs/banking/src/index.js';
import type { CustomerDataErased } from '../../libs/monitoring/src/index.js';
import { docsOfErasedCustomer } from '../erased-customer-docs.js';
import type { Projection, ReadCollection, RecordedEvent } from '../../libs/platform/src/index.js';

/**
 * Every re-verification schedule, for GET /v2/verify/schedules
 * (libs/banking/src/public/reverification-schedules.read-model.ts), as
 * stored: the customer as a pseudonym, their id and the address sealed
 * (docs/adr/0055). A customer's erasure (monitoring's CustomerDataErased,
 * which names them by the same pseudonym) drops the sealed address of their
 * schedules made up to it; it also finds, by the id in the clear, their
 * schedules stored before sealing. Not pipelined: an erasure's lookups see
 * every earlier write.
 */
export const reverificationSchedulesProjection: Projection<ScheduleDoc> = {
  name: REVERIFICATION_SCHEDULES_READ_MODEL.name,
  version: REVERIFICATION_SCHEDULES_READ_MODEL.version,
  streamPrefixes: ['reverification_schedule-', 'consent-'],
  handles: [...SCHEDULE_EVENT_TYPES, 'CustomerDataErased'],
  indexes: REVERIFICATION_SCHEDULE_INDEXES,
  async apply(event, collection) {
    if (event.type === 'CustomerDataErased') return applyErasure(event, collection);
    const scheduleEvent = { type: event.type as ScheduleEvent['type'], data: event.data };
    await collection.apply(String(event.data.schedule_id), event.position, (current) => evolveScheduleDoc(current, scheduleEvent) ?? null);
  },
};

async function applyErasure(event: RecordedEvent, collection: ReadCollection<ScheduleDoc>): Promise<void> {
  const erased = event.data as unknown as CustomerDataErased['data'];
  const { erased_at } = erased;
  const ids = (await docsOfErasedCustomer(collection, erased)).filter((doc) => doc.scheduled_at <= erased_at && doc.erased_at === null).map((doc) => doc.id);
  // At the erasure's position: a schedule made after it (under a new key) is newer and stays as it is.
  for (const id of ids) await collection.apply(id, event.position, (current) => (current ? eraseScheduleDoc(current, erased_at) : null));
}
