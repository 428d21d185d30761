import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ReverificationSchedules, type ScheduleDoc } from '../../libs/banking/src/index.js';
import { collectionName, EmbeddedReadStore, type RecordedEvent } from '../../libs/platform/src/index.js';
import { reverificationSchedulesProjection } from './reverification-schedules.projection.js';

const ID = 'rvs_0123456789abcdef0123456789abcdef';
let position = 0n;
const recorded = (type: string, data: Record<string, unknown>, id = ID): RecordedEvent => {
  position += 1n;
  return { id: `event-${position}`, streamName: `reverification_schedule-acct_a:${id}`, type, data: { account_id: 'acct_a', schedule_id: id, ...data }, metadata: { schema_version: 1 }, revision: position - 1n, position, createdAt: new Date() };
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

  it("drops the sealed address of the erased customer's schedules (by pseudonym, and by id before sealing), and only theirs, up to the erasure", async () => {
    const store = await EmbeddedReadStore.open(mkdtempSync(path.join(tmpdir(), 'reverification-schedules-erasure-')));
    try {
      const collection = await store.collection<ScheduleDoc>(collectionName(reverificationSchedulesProjection), reverificationSchedulesProjection.indexes);
      const [sealedId, legacyId, otherId, laterId] = ['a', 'b', 'c', 'd'].map((digit) => `rvs_${digit.repeat(32)}`);
      const terms = { loan_id: null, every_days: 30, method: 'kyc_address', scheduled_at: '2026-11-23T09:00:00.000Z', first_due_at: '2026-12-23T09:00:00.000Z' };
      const sealedAs = (pseudonym: string) => ({ pseudonym, customer_ref: `ref-${pseudonym}`, key_id: `key-${pseudonym}`, sealed: `v1.sealed-${pseudonym}` });
      const apply = (event: RecordedEvent) => reverificationSchedulesProjection.apply(event, collection);
      await apply(recorded('ReverificationScheduled', { customer_id: 'c', ...terms, ...sealedAs('p-c') }, sealedId));
      await apply(recorded('ReverificationScheduled', { customer_id: 'c', ...terms, address: '6Q3-HQK-Q4ZA' }, legacyId));
      await apply(recorded('ReverificationScheduled', { customer_id: 'other', ...terms, ...sealedAs('p-other') }, otherId));
      // A schedule made after the erasure (a new key) is not the erasure's.
      await apply(recorded('ReverificationScheduled', { customer_id: 'c', ...terms, scheduled_at: '2026-12-02T00:00:00.000Z', ...sealedAs('p-c') }, laterId));
      expect(await collection.get(sealedId)).toMatchObject({ pseudonym: 'p-c', customer_ref: 'ref-p-c', key_id: 'key-p-c', sealed: 'v1.sealed-p-c', legacy_customer_id: null, legacy_address: null, erased_at: null });
      expect(JSON.stringify(await collection.get(sealedId))).not.toContain('"c"');
      expect(await collection.get(legacyId)).toMatchObject({ pseudonym: null, legacy_customer_id: 'c', legacy_address: '6Q3-HQK-Q4ZA' });

      position += 1n;
      const erasure: RecordedEvent = {
        id: `event-${position}`,
        streamName: 'consent-acct_a:c',
        type: 'CustomerDataErased',
        data: { account_id: 'acct_a', customer_id: 'c', erased_at: '2026-12-01T00:00:00.000Z', erased_by: 'key_x', events_erased: 3, pseudonym: 'p-c' },
        metadata: { schema_version: 1 },
        revision: 0n,
        position,
        createdAt: new Date(),
      };
      await apply(erasure);
      expect(await collection.get(sealedId)).toMatchObject({ key_id: null, sealed: null, customer_ref: 'ref-p-c', erased_at: '2026-12-01T00:00:00.000Z', status: 'active' });
      expect(await collection.get(legacyId)).toMatchObject({ legacy_address: null, erased_at: '2026-12-01T00:00:00.000Z' });
      expect(await collection.get(otherId)).toMatchObject({ sealed: 'v1.sealed-p-other', erased_at: null });
      expect(await collection.get(laterId)).toMatchObject({ sealed: 'v1.sealed-p-c', erased_at: null });
      // The stop that follows the erasure still folds into the emptied document.
      await apply(recorded('ReverificationScheduleStopped', { stopped_at: '2026-12-01T00:00:01.000Z', reason: 'data_erased' }, sealedId));
      expect(await collection.get(sealedId)).toMatchObject({ status: 'stopped', stopped_reason: 'data_erased', sealed: null });
    } finally {
      await store.close();
    }
  });
});
