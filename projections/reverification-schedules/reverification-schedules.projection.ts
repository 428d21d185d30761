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
  const { account_id, customer_id, erased_at, pseudonym } = event.data as unknown as CustomerDataErased['data'];
  const ids: string[] = [];
  const lookups: Array<[string, string[]]> = [['by_legacy_customer', [account_id, customer_id]]];
  if (typeof pseudonym === 'string') lookups.push(['by_pseudonym', [account_id, pseudonym]]);
  for (const [index, equals] of lookups) {
    let cursor: string | undefined;
    do {
      const page = await collection.find({ index, equals, limit: 1000, cursor });
      for (const doc of page.items) if (doc.scheduled_at <= erased_at && doc.erased_at === null) ids.push(doc.id);
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
  }
  // At the erasure's position: a schedule made after it (under a new key) is newer and stays as it is.
  for (const id of ids) await collection.apply(id, event.position, (current) => (current ? eraseScheduleDoc(current, erased_at) : null));
}
