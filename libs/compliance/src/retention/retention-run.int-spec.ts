import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { auditEventTypes } from '../../../audit/src/index.js';
import { accessRecorderOver, auditTrailOver } from '../../../audit/src/public/testing/audit-trail.js';
import { EmbeddedEventStore, EventRegistry, type Clock } from '../../../platform/src/index.js';
import { CheckpointWriter } from '../checkpoints/checkpoint-writer.js';
import { fixedSigningKeys } from '../checkpoints/testing/fixed-signing-keys.js';
import { RETENTION_STREAM } from '../domain/retention.js';
import { complianceEventTypes } from '../event-types.js';
import { readManifests } from './archiver.js';
import { RetentionLease } from './retention-lease.js';
import { runRetention } from './retention-run.js';

/** Two runs at once (two workers, or a worker and the CLI): one archives, the other stands down; the run log records the outcome. */
describe('an archive run under the lease', () => {
  const registry = new EventRegistry().register(...auditEventTypes, ...complianceEventTypes);
  const clock: Clock = { now: () => new Date('2026-06-01T00:00:00Z') };

  it('runs once when two start together, archives every chain, and ends the lease with the counts', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'retention-run-'));
    const events = await EmbeddedEventStore.open(path.join(dir, 'store'));
    try {
      const recorder = accessRecorderOver(events, registry);
      const trail = auditTrailOver(events);
      const streams = ['acct_a', 'acct_b'].map((account) => trail.chainOf(account));
      for (const account of ['acct_a', 'acct_b']) {
        for (let day = 1; day <= 3; day++) {
          await recorder.record({ account_id: account, key_prefix: 'lk_x…', principal_kind: 'account', method: 'GET', path: '/v2/me', status: 200, client_ip: '203.0.113.7', at: `2026-01-0${day}T00:00:00.000Z`, request_id: `${account}-${day}` });
        }
      }
      const writer = new CheckpointWriter(events, registry, trail, fixedSigningKeys(), clock);
      const options = { archiveDir: path.join(dir, 'archive'), liveWindowMs: 0, now: new Date('2026-03-01T00:00:00Z') };
      // Both processes look on behalf of live holders elsewhere (alive: always), so the lease alone keeps them apart.
      const run = (role: string) => runRetention({ events, trail, writer, lease: new RetentionLease(events, registry, clock, role, 60_000, () => true), streams: async () => streams }, options);
      const outcomes = await Promise.all([run('worker'), run('ops')]);
      const completed = outcomes.filter((outcome) => outcome.status === 'completed');
      expect(completed).toHaveLength(1);
      expect(completed[0]).toMatchObject({ streams: 2, entries: 6, segments: [expect.objectContaining({ month: '2026-01', entries: 3 }), expect.objectContaining({ month: '2026-01', entries: 3 })] });
      expect(outcomes.find((outcome) => outcome.status === 'held')).toMatchObject({ held_by: { role: expect.stringMatching(/worker|ops/) } });
      for (const stream of streams) expect(readManifests(options.archiveDir, stream)).toHaveLength(1);
      const log = await events.readStream(RETENTION_STREAM);
      expect(log.map((event) => event.type)).toEqual(['AuditRetentionLeaseTaken', 'AuditRetentionRunEnded']);
      expect(log[1].data).toMatchObject({ outcome: 'completed', segments: 2, entries: 6 });
      // The next run takes the ended lease and finds nothing to do.
      expect(await run('worker')).toMatchObject({ status: 'completed', entries: 0 });
    } finally {
      await events.close();
    }
  });
});
