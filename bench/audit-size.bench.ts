import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { fixedSigningKeys } from '../libs/compliance/src/checkpoints/testing/fixed-signing-keys.js';
import { auditTrailOver } from '../libs/audit/src/public/testing/audit-trail.js';
import { complianceEventTypes } from '../libs/compliance/src/index.js';
import { archiveChain, CheckpointWriter } from '../libs/compliance/src/testing/benchmarked.js';
import { auditEventTypes, verifyChain, type ApiAccessRecorded } from '../libs/audit/src/index.js';
import { StoreAccessRecorder } from '../libs/audit/src/testing/benchmarked.js';
import { EmbeddedEventStore, EventRegistry } from '../libs/platform/src/index.js';
import type { Section } from './report.js';

/**
 * `npm run bench -- audit-size`: bytes per access entry (docs/adr/0024), live
 * in the embedded store and as a gzipped sealed segment. Sizes, not speeds:
 * the figures are in `settings`; the ratio to read is segment ÷ live.
 */
export async function runAuditSizeBench(options: { entries: number; progress: (line: string) => void }): Promise<Section> {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-audit-size-'));
  const size = () => readdirSync(dir, { recursive: true, encoding: 'utf8' }).reduce((sum, file) => sum + (statSync(path.join(dir, file)).isFile() ? statSync(path.join(dir, file)).size : 0), 0);
  const events = await EmbeddedEventStore.open(dir);
  try {
    const recorder = new StoreAccessRecorder(events, new EventRegistry().register(...auditEventTypes), { maxInFlight: 4 });
    const before = size();
    // Straddles a month end: about half the entries are in February, the month the retention run archives and trims.
    const base = Date.parse('2026-02-28T23:54:00Z');
    for (let batch = 0; batch < options.entries; batch += 500) {
      await Promise.all(
        Array.from({ length: Math.min(500, options.entries - batch) }, (_, offset) => {
          const index = batch + offset;
          return recorder.record({
            account_id: `acct_${index % 50}x7Kq2mP9`,
            key_prefix: 'lk_3f9a2b…',
            principal_kind: 'account',
            method: 'GET',
            path: `/v2/geocode/reverse?lat=5.${6000 + (index % 997)}&lng=-0.${1800 + (index % 331)}`,
            status: index % 17 === 0 ? 404 : 200,
            client_ip: `203.0.113.${index % 250}`,
            at: new Date(base + index * 37).toISOString(),
            request_id: `4f1c2b7e-8d3a-4e5f-9a6b-${String(index).padStart(12, '0')}`,
          });
        }),
      );
      options.progress(`audit-size: ${Math.min(batch + 500, options.entries)} entries`);
    }
    await recorder.flush();
    const onDisk = (size() - before) / options.entries;
    const chain = (await events.readStream('access_log-acct_0x7Kq2mP9')).map((event) => event.data as ApiAccessRecorded['data']);
    const lines = chain.map((entry) => JSON.stringify(entry));
    const dataBytes = lines.reduce((sum, line) => sum + Buffer.byteLength(line), 0) / lines.length;
    const segmentBytes = gzipSync(lines.join('\n')).length / lines.length;
    const verdict = verifyChain(chain);

    // Retention (docs/adr/0024): archive February of every chain into gzipped bundles, trim it from the live store.
    const registry = new EventRegistry().register(...auditEventTypes, ...complianceEventTypes);
    const trail = auditTrailOver(events);
    const writer = new CheckpointWriter(events, registry, trail, fixedSigningKeys('bench'), { now: () => new Date('2026-05-01T00:00:00Z') });
    const archiveDir = mkdtempSync(path.join(tmpdir(), 'bench-audit-archive-'));
    const storeBefore = size();
    let archived = 0;
    for (let chainIndex = 0; chainIndex < 50; chainIndex++) {
      for (const segment of await archiveChain(events, trail, writer, `access_log-acct_${chainIndex}x7Kq2mP9`, { archiveDir, liveWindowMs: 86_400_000, now: new Date('2026-03-20T00:00:00Z') })) archived += segment.entries;
    }
    const storeAfter = size();
    const archiveBytes = readdirSync(archiveDir, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.gz'))
      .reduce((sum, file) => sum + statSync(path.join(archiveDir, file)).size, 0);
    rmSync(archiveDir, { recursive: true, force: true });
    const liveLeft = options.entries - archived;
    const trimmed = {
      archived_entries: archived,
      live_store_bytes_per_entry_before_trim: Math.round(storeBefore / options.entries),
      // LMDB keeps its file size and reuses the freed pages for new entries: the file does not shrink.
      live_store_bytes_per_live_entry_after_trim: Math.round(storeAfter / Math.max(1, liveLeft)),
      archive_bytes_per_entry: Math.round(archiveBytes / Math.max(1, archived)),
    };
    return {
      id: 'audit-size',
      title: 'access trail: bytes per entry, live and in a gzipped segment',
      unit: 'entry',
      settings: {
        entries: options.entries,
        chains: 50,
        data_json_bytes_per_entry: Math.round(dataBytes),
        on_disk_bytes_per_entry: Math.round(onDisk),
        gzip_segment_bytes_per_entry: Math.round(segmentBytes),
        segment_over_live: Math.round((segmentBytes / onDisk) * 1000) / 1000,
        ...trimmed,
      },
      rows: [],
      checks: [
        { name: 'a month archived and trimmed', ok: archived > 0 && archived < options.entries, detail: `${archived} entries archived at ${trimmed.archive_bytes_per_entry} B each (bundle with checkpoints, gzipped); live store ${storeBefore} B before, ${storeAfter} B after trimming (LMDB reuses freed pages, the file keeps its size)` },
        { name: 'the measured chain verifies', ok: verdict.ok, detail: verdict.ok ? `${verdict.entries} entries` : verdict.reason },
        {
          name: 'bytes per entry',
          ok: true,
          detail: `data JSON ${Math.round(dataBytes)} B, on disk ${Math.round(onDisk)} B, gzipped segment ${Math.round(segmentBytes)} B (${((segmentBytes / onDisk) * 100).toFixed(1)}% of live)`,
        },
      ],
    };
  } finally {
    await events.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
