import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { jest } from '@jest/globals';
import { DirectoryInUseError, EmbeddedEventStore, EventRegistry, type EventStore } from '../../../platform/src/index.js';
import { link, verifyChain, type ApiAccessRecorded } from '../domain/access-events.js';
import { auditEventTypes } from '../event-types.js';
import { AccessJournal } from './access-journal.js';
import { JournaledAccessRecorder } from '../public/journaled-access-recorder.js';
import { accessEntry as entry } from './testing/access-entry.js';


const registry = new EventRegistry().register(...auditEventTypes);
const register = fileURLToPath(new URL('../../../platform/src/testing/register-ts.mjs', import.meta.url));
const child = fileURLToPath(new URL('./testing/journal-child.ts', import.meta.url));

describe('JournaledAccessRecorder (embedded store, ADR 0004 "The journal")', () => {
  let root: string;
  let storeDir: string;
  let journalDir: string;
  let events: EventStore;
  const opened: JournaledAccessRecorder[] = [];

  beforeEach(async () => {
    root = mkdtempSync(path.join(tmpdir(), 'journal-'));
    storeDir = path.join(root, 'store');
    journalDir = path.join(root, 'journal');
    mkdirSync(storeDir);
    events = await EmbeddedEventStore.open(storeDir);
  });
  afterEach(async () => {
    for (const recorder of opened.splice(0)) await recorder.onModuleDestroy();
    await events.close();
  });

  // Small segments (the default is 8 MB), so reading the journal back in a test is cheap.
  const open = async () => {
    const recorder = await JournaledAccessRecorder.open(events, registry, journalDir, () => undefined, { segmentBytes: 256 * 1024 });
    opened.push(recorder);
    return recorder;
  };
  const chainOf = async (stream: string) => (await events.readStream(stream)).map((event) => event.data as unknown as ApiAccessRecorded['data']);
  /** Every segment file under the journal root (one directory per process), as `dir/segment-….jsonl`. */
  const segments = () =>
    existsSync(journalDir)
      ? readdirSync(journalDir).flatMap((dir) => readdirSync(path.join(journalDir, dir)).filter((name) => name.endsWith('.jsonl')).map((name) => path.join(dir, name)))
      : [];
  // Segments are allocated as zeros; the records end where the zeros begin.
  const journalLines = () =>
    segments().flatMap((name) => {
      const raw = readFileSync(path.join(journalDir, name));
      const end = raw.indexOf(0);
      return raw.toString('utf8', 0, end < 0 ? raw.length : end).split('\n').filter(Boolean);
    });

  it('answers once the entry is in the journal, in fewer writes than entries, and stores the chains intact and in order', async () => {
    const recorder = await open();
    const writes = jest.spyOn(AccessJournal.prototype, 'append');
    const ids = Array.from({ length: 300 }, (_, index) => `r${index}`);
    let answered = 0;
    await Promise.all(
      ids.map((id, index) =>
        recorder.record(entry(index % 3 === 0 ? null : 'acct_1', id)).then(() => {
          answered++;
          // Durable before the answer: the journal holds the entry when its record resolves.
          expect(journalLines().some((line) => line.includes(`"request_id":"${id}"`))).toBe(true);
        }),
      ),
    );
    expect(answered).toBe(300);
    expect(writes.mock.calls.length).toBeLessThan(30);
    writes.mockRestore();

    await recorder.applied();
    const platform = await chainOf('access_log-platform');
    const account = await chainOf('access_log-acct_1');
    expect(verifyChain(platform)).toMatchObject({ ok: true, entries: 100 });
    expect(verifyChain(account)).toMatchObject({ ok: true, entries: 200 });
    expect(account.map((item) => item.request_id)).toEqual(ids.filter((_, index) => index % 3 !== 0));
  });

  it('moves on to new segments as they fill and deletes each one once the store holds all of it', async () => {
    // Writes of ~20 kB (50 entries) into 64 kB segments: three fit, then the spare takes over.
    const recorder = await JournaledAccessRecorder.open(events, registry, journalDir, () => undefined, { segmentBytes: 64 * 1024 });
    opened.push(recorder);
    const ids = Array.from({ length: 600 }, (_, index) => `s${index}`);
    for (let start = 0; start < ids.length; start += 50) {
      await Promise.all(ids.slice(start, start + 50).map((id) => recorder.record(entry('acct_3', id))));
    }
    await recorder.applied();
    const chain = await chainOf('access_log-acct_3');
    expect(verifyChain(chain)).toMatchObject({ ok: true, entries: 600 });
    expect(chain.map((item) => item.request_id)).toEqual(ids);
    // ~230 kB of lines went through 64 kB segments; what is left is the one being written and the spare.
    for (let tries = 0; segments().length > 2 && tries < 100; tries++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(segments().length).toBeLessThanOrEqual(2);
  });

  it('continues a chain the store already holds (an earlier process, or the other recorder)', async () => {
    await events.append('access_log-acct_1', link([entry('acct_1', 'old-0'), entry('acct_1', 'old-1')], undefined).map((event) => ({ type: event.type, data: event.data as unknown as Record<string, unknown> })), 'no_stream');
    const recorder = await open();
    await Promise.all([recorder.record(entry('acct_1', 'new-0')), recorder.record(entry('acct_1', 'new-1'))]);
    await recorder.applied();
    const chain = await chainOf('access_log-acct_1');
    expect(verifyChain(chain)).toMatchObject({ ok: true, entries: 4 });
    expect(chain.map((item) => item.request_id)).toEqual(['old-0', 'old-1', 'new-0', 'new-1']);
  });

  it('after a SIGKILL, stores on the next start what was journaled but not stored, once, and empties the journal', async () => {
    await events.close();
    // Segments of 16 KiB: the 450 unstored entries span several of them (a write larger than one gets its own).
    const proc = spawn(process.execPath, ['--import', register, child, storeDir, journalDir, '30', '450', String(16 * 1024)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    proc.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
    await new Promise<void>((resolve, reject) => {
      proc.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        out += chunk;
        if (out.includes('recorded 480\n')) resolve();
      });
      proc.on('close', () => reject(new Error(`the child exited early: ${err}`)));
    });
    const killed = new Promise((resolve) => proc.on('close', resolve));
    proc.kill('SIGKILL');
    await killed;

    events = await EmbeddedEventStore.open(storeDir);
    // The 30 stored before the kill are in the store; the 450 after are only in the journal, over several segments.
    const before = [...(await chainOf('access_log-platform')), ...(await chainOf('access_log-acct_1'))];
    expect(before).toHaveLength(30);
    expect(journalLines().length).toBeGreaterThanOrEqual(450);
    expect(segments().length).toBeGreaterThan(3);

    const recorder = await open();
    const platform = await chainOf('access_log-platform');
    const account = await chainOf('access_log-acct_1');
    expect(verifyChain(platform)).toMatchObject({ ok: true, entries: 160 });
    expect(verifyChain(account)).toMatchObject({ ok: true, entries: 320 });
    expect(new Set([...platform, ...account].map((item) => item.request_id)).size).toBe(480);

    // The chains go on from where the journal left them.
    await recorder.record(entry(null, 'after-restart'));
    await recorder.applied();
    expect(verifyChain(await chainOf('access_log-platform'))).toMatchObject({ ok: true, entries: 161 });
    await recorder.onModuleDestroy();
    opened.splice(0);
    expect(segments()).toEqual([]);
  });

  it('drops a line cut short at the end of a segment (never acknowledged), and refuses a damaged one before it', async () => {
    const dead = path.join(journalDir, 'deadbeef0001');
    mkdirSync(dead, { recursive: true });
    const lines = ['a', 'b', 'c'].map((id, n) => JSON.stringify({ n, entry: entry(null, id) }));
    writeFileSync(path.join(dead, 'segment-0000000000000001.jsonl'), `${lines[0]}\n${lines[1]}\n${lines[2].slice(0, 40)}`);
    const recorder = await open();
    expect((await chainOf('access_log-platform')).map((item) => item.request_id)).toEqual(['a', 'b']);
    await recorder.record(entry(null, 'd'));
    await recorder.applied();
    expect(verifyChain(await chainOf('access_log-platform'))).toMatchObject({ ok: true, entries: 3 });
    await recorder.onModuleDestroy();
    opened.splice(0);

    const damaged = path.join(journalDir, 'deadbeef0002');
    mkdirSync(damaged);
    writeFileSync(path.join(damaged, 'segment-0000000000000001.jsonl'), `${lines[0].slice(0, 40)}\n${lines[1]}\n`);
    await expect(JournaledAccessRecorder.open(events, registry, journalDir, () => undefined)).rejects.toThrow(/line 1 is damaged/);
  });

  it('two api processes on one data folder each keep a journal, and their entries interleave in intact chains', async () => {
    const first = await open();
    const second = await open();
    const ids = Array.from({ length: 100 }, (_, index) => `both-${index}`);
    await Promise.all(ids.map((id, index) => (index % 2 === 0 ? first : second).record(entry('acct_5', id))));
    await Promise.all([first.applied(), second.applied()]);
    const chain = await chainOf('access_log-acct_5');
    expect(verifyChain(chain)).toMatchObject({ ok: true, entries: 100 });
    expect(new Set(chain.map((item) => item.request_id))).toEqual(new Set(ids));
    expect(readdirSync(journalDir)).toHaveLength(2);
  });

  it('settle (the ops CLI) stores what a stopped process journaled, and leaves a running one alone', async () => {
    const dead = path.join(journalDir, 'deadbeef0003');
    mkdirSync(dead, { recursive: true });
    writeFileSync(path.join(dead, 'segment-0000000000000001.jsonl'), `${JSON.stringify({ n: 0, entry: entry(null, 'left-behind') })}\n`);
    expect(await JournaledAccessRecorder.settle(events, registry, journalDir)).toBe('stored');
    expect((await chainOf('access_log-platform')).map((item) => item.request_id)).toEqual(['left-behind']);
    expect(existsSync(dead)).toBe(false);

    await open();
    expect(await JournaledAccessRecorder.settle(events, registry, journalDir)).toBe('held');
    // Settling twice stores nothing twice.
    expect(await chainOf('access_log-platform')).toHaveLength(1);
  });


  it('keeps answering while the store fails (the journal holds the entries), and stores them once it recovers, each chain once', async () => {
    const recorder = await open();
    const append = events.append.bind(events);
    let failing = true;
    // One chain's appends fail, the other's in the same round succeed: only the failed one may go again.
    const spy = jest.spyOn(events, 'append').mockImplementation((stream, ...rest) => (failing && stream === 'access_log-acct_2' ? Promise.reject(new Error('disk full')) : append(stream, ...rest)));
    await Promise.all([recorder.record(entry('acct_2', 'while-failing')), recorder.record(entry('acct_4', 'beside-it'))]);
    await expect(recorder.applied()).rejects.toThrow(/not readable right now/);
    failing = false;
    await recorder.record(entry('acct_2', 'after'));
    await recorder.record(entry('acct_4', 'after'));
    // The round is retried after a pause (APPLY_RETRY_MS); until then applied() keeps refusing.
    for (;;) {
      const outcome = await recorder.applied().then(
        () => 'stored',
        () => 'refused',
      );
      if (outcome === 'stored') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    spy.mockRestore();
    expect((await chainOf('access_log-acct_2')).map((item) => item.request_id)).toEqual(['while-failing', 'after']);
    const beside = await chainOf('access_log-acct_4');
    expect(beside.map((item) => item.request_id)).toEqual(['beside-it', 'after']);
    expect(verifyChain(beside)).toMatchObject({ ok: true, entries: 2 });
  });

});
