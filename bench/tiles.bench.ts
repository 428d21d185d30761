import { randomBytes } from 'node:crypto';
import { createReadStream, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { serveHttp, type RunningHttp } from '../apps/api/src/serve.js';
import { AccessRecorder } from '../libs/audit/src/index.js';
import { closeBackends, type Runtime } from '../libs/platform/src/index.js';
import { TilesModule } from '../libs/tiles/src/index.js';
import { BenchApiModule, openBenchRuntime } from './http-bench.module.js';
import { issueKey, loadSample, runLoad, type LoadSettings, type MeasuredLoad } from './load.js';
import { toRow, type Check, type Row, type Sample, type Section } from './report.js';

/**
 * Range serving of GET /v2/tiles/{name} against a bare Fastify handler that
 * does the least a static range server must (stat, parse one range, stream the
 * slice), on the same file, loaded by autocannon in a child process with the
 * same connections and duration, in the same run. Two range sizes: 16 KiB is
 * what the PMTiles client asks first (header and root directory); 256 KiB is a
 * leaf directory or a large tile. Our route is measured with its access audit
 * on (as in production) and off (the recorder's `record` swapped for a no-op
 * for those runs only), so the handler's own price shows apart from the audit's.
 */

export interface TilesBenchOptions extends LoadSettings {
  rounds: number;
  progress: (line: string) => void;
}

const ARCHIVE_BYTES = 32 * 1024 * 1024;
const RANGES = [
  { label: '16 KiB', start: 1_048_576, length: 16 * 1024 },
  { label: '256 KiB', start: 8_388_608, length: 256 * 1024 },
];

type TargetId = 'bare' | 'unaudited' | 'audited';

export async function runTilesBench(options: TilesBenchOptions): Promise<Section> {
  const parent = mkdtempSync(path.join(tmpdir(), 'bench-tiles-'));
  const tilesDir = path.join(parent, 'tiles');
  mkdirSync(tilesDir);
  const archive = randomBytes(ARCHIVE_BYTES);
  const file = path.join(tilesDir, 'bench.pmtiles');
  writeFileSync(file, archive);

  const bare = bareRangeServer(file);
  await bare.listen({ port: 0, host: '127.0.0.1' });
  const bareUrl = `http://127.0.0.1:${(bare.server.address() as AddressInfo).port}/bench.pmtiles`;

  const adminKey = randomBytes(24).toString('base64url');
  let runtime: Runtime | undefined;
  let served: RunningHttp | undefined;
  try {
    runtime = await openBenchRuntime(path.join(parent, 'data'), adminKey, { TILES_DIR: tilesDir });
    served = await serveHttp(runtime, BenchApiModule.forRoot(runtime, [TilesModule]), 'bench', { signals: false });
    const ourUrl = `${served.url}/v2/tiles/bench`;
    const recorder = served.app.get(AccessRecorder);
    const record = recorder.record.bind(recorder);
    const auditing = (on: boolean) => {
      recorder.record = on ? record : () => Promise.resolve();
    };

    const checks: Check[] = [];
    const rows: Row[] = [];
    const settings: Record<string, unknown> = {
      connections: options.connections,
      warmup_seconds: options.warmupSeconds,
      seconds_per_round: options.seconds,
      rounds: options.rounds,
      archive_bytes: ARCHIVE_BYTES,
      baseline: 'bare Fastify route: fs.stat, one bytes=a-b range, createReadStream slice; no auth, no audit, no validators',
      cpu: 'process.cpuUsage() of the server process (all its threads) over the measured phase, per completed request',
    };

    for (const range of RANGES) {
      const header = `bytes=${range.start}-${range.start + range.length - 1}`;
      const expected = archive.subarray(range.start, range.start + range.length);
      // Each range gets its own enterprise key (100,000 a day): the runs must not reach the quota.
      const key = await issueKey(served.url, adminKey, `bench-tiles-${range.label}`);
      const targets: Array<{ id: TargetId; label: string; url: string; headers: Record<string, string> }> = [
        { id: 'bare', label: `bare Fastify range handler, ${range.label}`, url: bareUrl, headers: { range: header } },
        { id: 'unaudited', label: `GET /v2/tiles/{name}, key + quota, audit off, ${range.label}`, url: ourUrl, headers: { range: header, 'x-api-key': key } },
        { id: 'audited', label: `GET /v2/tiles/{name}, key + quota + audit, ${range.label}`, url: ourUrl, headers: { range: header, 'x-api-key': key } },
      ];
      checks.push(await sameAnswer(targets, expected, header));

      const samples: Record<TargetId, Sample[]> = { bare: [], unaudited: [], audited: [] };
      const failures: Record<TargetId, { bad: number; statusCodes: Record<string, number> }> = {
        bare: { bad: 0, statusCodes: {} },
        unaudited: { bad: 0, statusCodes: {} },
        audited: { bad: 0, statusCodes: {} },
      };
      for (let round = 0; round < options.rounds; round++) {
        const order = round % 2 === 0 ? targets : [...targets].reverse();
        for (const target of order) {
          auditing(target.id !== 'unaudited');
          let measured: MeasuredLoad;
          try {
            measured = await runLoad(target, options);
          } finally {
            auditing(true);
          }
          const { outcome, cpuMicros } = measured;
          samples[target.id].push(loadSample(measured));
          const failed = failures[target.id];
          // autocannon counts 206 as 2xx; anything else (a 200 whole file, a 429) is a failure of the setup.
          for (const [code, count] of Object.entries(outcome.statusCodes)) {
            failed.statusCodes[code] = (failed.statusCodes[code] ?? 0) + count;
            if (code !== '206') failed.bad += count;
          }
          failed.bad += outcome.errors;
          options.progress(
            `tiles ${target.label}, round ${round + 1}/${options.rounds}: ${Math.round(outcome.completed / outcome.seconds)} req/s, ` +
              `${(cpuMicros / Math.max(1, outcome.completed)).toFixed(1)} µs CPU/req`,
          );
        }
      }
      for (const target of targets) {
        const failed = failures[target.id];
        checks.push({ name: `${target.label}: every response 206`, ok: failed.bad === 0, detail: `status codes ${JSON.stringify(failed.statusCodes)}` });
      }
      const baseline = toRow(targets[0].label, 'baseline', samples.bare);
      const unaudited = toRow(targets[1].label, 'ours', samples.unaudited, baseline);
      rows.push(baseline, unaudited, toRow(targets[2].label, 'ours', samples.audited, baseline), toRow(`${targets[2].label} (vs audit off)`, 'ours', samples.audited, unaudited));
    }

    return {
      id: 'tiles',
      title: `PMTiles range serving vs a bare Fastify range handler (autocannon, ${options.connections} connections; ratio = row ÷ the row named on the right)`,
      unit: 'req',
      settings,
      rows,
      checks,
    };
  } finally {
    if (served) await served.close();
    else if (runtime) await closeBackends(runtime.backends);
    await bare.close();
    rmSync(parent, { recursive: true, force: true });
  }
}

/** The baseline: what any static server must do for one range, and nothing more. */
function bareRangeServer(file: string) {
  const bare = Fastify();
  bare.get('/bench.pmtiles', async (request, reply) => {
    const { size } = await stat(file);
    const match = /^bytes=(\d+)-(\d+)$/.exec(String(request.headers.range ?? ''));
    if (!match) return reply.header('content-length', size).send(createReadStream(file));
    const start = Number(match[1]);
    const end = Math.min(Number(match[2]), size - 1);
    return reply
      .status(206)
      .header('content-range', `bytes ${start}-${end}/${size}`)
      .header('content-length', end - start + 1)
      .send(createReadStream(file, { start, end }));
  });
  return bare;
}

/** Both servers answer the range with the same status, Content-Range and bytes, so the comparison is like for like. */
async function sameAnswer(targets: Array<{ label: string; url: string; headers: Record<string, string> }>, expected: Buffer, range: string): Promise<Check> {
  const problems: string[] = [];
  for (const target of targets) {
    const response = await fetch(target.url, { headers: target.headers });
    const body = Buffer.from(await response.arrayBuffer());
    if (response.status !== 206 || !body.equals(expected)) problems.push(`${target.label} answered ${response.status} with ${body.length} bytes`);
    const contentRange = response.headers.get('content-range');
    if (!contentRange?.startsWith(`bytes ${range.slice('bytes='.length)}/`)) problems.push(`${target.label}: Content-Range ${contentRange}`);
  }
  return {
    name: `preflight ${range}`,
    ok: problems.length === 0,
    detail: problems.length === 0 ? `every target answers 206 with the same ${expected.length} bytes` : problems.join('; '),
  };
}
