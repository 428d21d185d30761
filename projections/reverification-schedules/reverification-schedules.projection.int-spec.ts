import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ReverificationSchedules, type ScheduleDoc } from '../../libs/banking/src/index.js';
import { collectionName, EmbeddedReadStore, type RecordedEvent } from '../../libs/platform/src/index.js';
import { reverificationSchedulesProjection } from './reverification-schedules.projection.js';

const ID = 'rvs_0123456789abcdef0123456789abcdef';
let position = 0n;
const recorded = (type: string, data: Record<string, unknown>): RecordedEvent => {
  position += 1n;
  return { id: `event-${position}`, streamName: `reverification_schedule-acct_a:${ID}`, type, data: { account_id: 'acct_a', schedule_id: ID, ...data }, metadata: { schema_version: 1 }, revision: position - 1n, position, createdAt: new Date() };
};

describe('reverification_schedules projection', () => {
  it('follows a schedule through a run to its cancellation; a replayed event changes nothing', async () => {
    const store = await EmbeddedReadStore.open(mkdtempSync(path.join(tmpdir(), 'reverification-schedules-')));
    try {
      const collection = await store.collection<ScheduleDoc>(collectionName(reverificationSchedulesProjection), reverificationSchedulesProjection.indexes);
      const schedules = new ReverificationSchedules(store);
      const scheduled = recorded('ReverificationScheduled', { customer_id: 'c', loan_id: null, every_days: 30, method: 'kyc_address', address: '6Q3-HQK-Q4ZA', scheduled_at: '2026-11-23T09:00:00.000Z', first_due_at: '2026-12-23T09:00:00.000Z' });
      await reverificationSchedulesProjection.apply(scheduled, collection);
      const ran = recorded('ReverificationCompleted', { customer_id: 'c', loan_id: null, run: 1, due_at: '2026-12-23T09:00:00.000Z', ran_at: '2026-12-23T09:00:01.000Z', verification_id: 'vrf_1', result: 'not_verified', score: 0.2, error: null, next_due_at: '2027-01-22T09:00:00.000Z' });
      await reverificationSchedulesProjection.apply(ran, collection);
      const stored = await collection.getStored(ID);
      await reverificationSchedulesProjection.apply(ran, collection);
      await reverificationSchedulesProjection.apply(scheduled, collection);
      expect(await collection.getStored(ID)).toEqual(stored);
      expect(stored?.doc).toMatchObject({ status: 'active', runs: 1, next_due_at: '2027-01-22T09:00:00.000Z', last_run: { result: 'not_verified' } });
      expect((await schedules.list('acct_a', 'active', 10)).items.map((doc) => doc.id)).toEqual([ID]);
      const active: string[] = [];
      for await (const page of schedules.active()) active.push(...page.map((doc) => doc.id));
      expect(active).toEqual([ID]);

      await reverificationSchedulesProjection.apply(recorded('ReverificationScheduleCancelled', { cancelled_at: '2026-12-24T00:00:00.000Z' }), collection);
      expect((await schedules.list('acct_a', 'active', 10)).items).toEqual([]);
      expect((await schedules.list('acct_a', 'cancelled', 10)).items).toMatchObject([{ id: ID, cancelled_at: '2026-12-24T00:00:00.000Z', runs: 1 }]);
    } finally {
      await store.close();
    }
  });
});
