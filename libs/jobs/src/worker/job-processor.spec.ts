import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { CommandBus } from '@nestjs/cqrs';
import { customerDataKeySubject, EmbeddedDataKeyVault, InvalidParamError, SecretBox, type Job, type JobQueue, type JsonLogger } from '../../../platform/src/index.js';
import type { RecordJobCommand } from '../commands/record-job/record-job.handler.js';
import { jobDecider, jobStream, sealedJobResult, type JobCommand, type JobEvent, type JobState } from '../domain/job.js';
import type { JobKind } from '../public/job-kind.js';
import { JOB_ATTEMPTS, type QueuedJob } from '../public/job-submitter.js';
import { JobResults } from '../results/job-results.js';
import { JobProcessor } from './job-processor.js';

/** The command bus as the pipeline would run RecordJobCommand, over streams kept in memory. */
function memoryBus(now: Date) {
  const streams = new Map<string, JobEvent[]>();
  const bus = {
    async execute(command: RecordJobCommand) {
      const input = command.input as JobCommand;
      const stream = jobStream(input.account_id, input.job_id);
      const history = streams.get(stream) ?? [];
      const previous = history.reduce(jobDecider.evolve, jobDecider.initialState);
      const events = jobDecider.decide(input, previous, now);
      streams.set(stream, [...history, ...events]);
      return { previous, state: events.reduce(jobDecider.evolve, previous), events, command: input };
    },
  };
  const state = (accountId: string, jobId: string): JobState => (streams.get(jobStream(accountId, jobId)) ?? []).reduce(jobDecider.evolve, jobDecider.initialState);
  return { bus: bus as unknown as CommandBus, state, events: (accountId: string, jobId: string) => streams.get(jobStream(accountId, jobId)) ?? [] };
}

const now = new Date('2026-12-07T10:00:00.000Z');
const logger = { warn: () => undefined } as unknown as JsonLogger;
const ids = { account_id: 'acct_1', job_id: 'job_0123456789abcdef0123456789abcdef' };
const job = (kind: string, attemptsMade = 0): Job<QueuedJob> => ({ id: ids.job_id, queue: 'jobs', name: kind, data: { ...ids, kind, input: { n: 3 } }, attemptsMade });

async function setUp(kinds: JobKind[]) {
  const memory = memoryBus(now);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'jobs-processor-'));
  const box = SecretBox.fromKey(randomBytes(32));
  const vault = await EmbeddedDataKeyVault.open(dataDir, box);
  const results = new JobResults(dataDir, vault, box);
  const processor = new JobProcessor(kinds, memory.bus, {} as JobQueue, results, { now: () => now }, logger);
  return { ...memory, results, processor, vault };
}

describe('the job processor', () => {
  it('runs the kind, reports its progress, writes the envelope under DATA_DIR/jobs and records the success once', async () => {
    const doubling: JobKind<{ n: number }> = {
      kind: 'test.double',
      async run(input, context) {
        await context.progress(1, 2);
        return { doubled: input.n * 2 };
      },
    };
    const { bus, state, events, results, processor } = await setUp([doubling as JobKind]);
    await bus.execute({ input: { type: 'Queue', ...ids, kind: 'test.double', total: 2 } } as RecordJobCommand);
    await processor.run(job('test.double'));
    expect(state(ids.account_id, ids.job_id)).toMatchObject({ status: 'succeeded', done: 2, total: 2, attempts: 1, expires_at: '2026-12-14T10:00:00.000Z' });
    expect(events(ids.account_id, ids.job_id).map((event) => event.type)).toEqual(['JobQueued', 'JobStarted', 'JobProgressed', 'JobSucceeded']);
    const file = path.join(results.root, ids.account_id, `${ids.job_id}.json`);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ success: true, data: { doubled: 6 } });
    // The same job delivered again (a retry after a worker stopped) records nothing more.
    await processor.run(job('test.double', 1));
    expect(events(ids.account_id, ids.job_id)).toHaveLength(4);
  });

  it('fails a job whose kind refuses the request with that refusal, without a retry', async () => {
    const refusing: JobKind = { kind: 'test.refuse', run: async () => Promise.reject(new InvalidParamError('resolution must be an integer from 0 to 15', 'resolution')) };
    const { bus, state, processor } = await setUp([refusing]);
    await bus.execute({ input: { type: 'Queue', ...ids, kind: 'test.refuse', total: null } } as RecordJobCommand);
    await processor.run(job('test.refuse'));
    expect(state(ids.account_id, ids.job_id)).toMatchObject({ status: 'failed', error: { code: 'INVALID_PARAM', message: 'resolution must be an integer from 0 to 15' } });
  });

  it('lets the queue retry a run that broke, and fails the job with JOB_FAILED on the last attempt', async () => {
    const broken: JobKind = { kind: 'test.broken', run: async () => Promise.reject(new Error('store away')) };
    const { bus, state, processor } = await setUp([broken]);
    await bus.execute({ input: { type: 'Queue', ...ids, kind: 'test.broken', total: null } } as RecordJobCommand);
    await expect(processor.run(job('test.broken', 0))).rejects.toThrow('store away');
    expect(state(ids.account_id, ids.job_id)).toMatchObject({ status: 'running', attempts: 1 });
    await processor.run(job('test.broken', JOB_ATTEMPTS - 1));
    expect(state(ids.account_id, ids.job_id)).toMatchObject({ status: 'failed', attempts: JOB_ATTEMPTS, error: { code: 'JOB_FAILED' } });
  });

  it('fails a job of a kind no worker runs', async () => {
    const { bus, state, processor } = await setUp([]);
    await bus.execute({ input: { type: 'Queue', ...ids, kind: 'test.unknown', total: null } } as RecordJobCommand);
    await processor.run(job('test.unknown'));
    expect(state(ids.account_id, ids.job_id)).toMatchObject({ status: 'failed', error: { code: 'JOB_FAILED', message: 'no worker runs jobs of kind test.unknown' } });
  });

  describe("a result made from a customer's data (docs/adr/0068)", () => {
    const subject = customerDataKeySubject(ids.account_id, 'cust-sealed-1');
    const secret = 'lat 5.6141237, the position that must not be left readable';
    const copying = (keyId: () => string): JobKind => ({ kind: 'test.copy', run: async () => sealedJobResult(subject, keyId(), { position: secret }) });

    it('stores it sealed under the customer key it names, opens it while the key exists, and never after the key is destroyed', async () => {
      let keyId = '';
      const { bus, state, results, processor, vault } = await setUp([copying(() => keyId)]);
      keyId = (await vault.obtain(subject)).id;
      await bus.execute({ input: { type: 'Queue', ...ids, kind: 'test.copy', total: null } } as RecordJobCommand);
      await processor.run(job('test.copy'));
      const envelope = JSON.stringify({ success: true, data: { position: secret } });
      expect(state(ids.account_id, ids.job_id)).toMatchObject({ status: 'succeeded', result_bytes: Buffer.byteLength(envelope) });
      const file = path.join(results.root, ids.account_id, `${ids.job_id}.sealed`);
      const stored = readFileSync(file);
      // Neither the result nor the customer is in the file's bytes.
      expect(stored.includes('5.6141237')).toBe(false);
      expect(stored.includes('cust-sealed-1')).toBe(false);
      expect(existsSync(path.join(results.root, ids.account_id, `${ids.job_id}.json`))).toBe(false);
      const opened = await results.read(ids.account_id, ids.job_id);
      expect(opened.state === 'opened' && opened.bytes.toString('utf8')).toBe(envelope);
      expect(await results.erased(ids.account_id, ids.job_id)).toBe(false);

      await vault.destroy(subject);
      expect(await results.erased(ids.account_id, ids.job_id)).toBe(true);
      expect(await results.read(ids.account_id, ids.job_id)).toEqual({ state: 'erased' });
      // A key made for the customer afterwards (a new consent) does not open it either.
      await vault.obtain(subject);
      expect(await results.read(ids.account_id, ids.job_id)).toEqual({ state: 'erased' });
    });

    it('writes nothing and fails the job with JOB_RESULT_ERASED when the key was destroyed before the result was made', async () => {
      let keyId = '';
      const { bus, state, results, processor, vault } = await setUp([copying(() => keyId)]);
      keyId = (await vault.obtain(subject)).id;
      await vault.destroy(subject);
      await bus.execute({ input: { type: 'Queue', ...ids, kind: 'test.copy', total: null } } as RecordJobCommand);
      await processor.run(job('test.copy'));
      expect(state(ids.account_id, ids.job_id)).toMatchObject({ status: 'failed', error: { code: 'JOB_RESULT_ERASED' } });
      expect(existsSync(path.join(results.root, ids.account_id, `${ids.job_id}.sealed`))).toBe(false);
      expect(await results.read(ids.account_id, ids.job_id)).toEqual({ state: 'none' });
    });

    it('opens a sealed result only as the job it was written for', async () => {
      let keyId = '';
      const { bus, results, processor, vault } = await setUp([copying(() => keyId)]);
      keyId = (await vault.obtain(subject)).id;
      await bus.execute({ input: { type: 'Queue', ...ids, kind: 'test.copy', total: null } } as RecordJobCommand);
      await processor.run(job('test.copy'));
      const other = 'job_ffffffffffffffffffffffffffffffff';
      const bytes = readFileSync(path.join(results.root, ids.account_id, `${ids.job_id}.sealed`));
      await results.writeSealed(ids.account_id, other, Buffer.from('{}'), subject, keyId);
      // The first job's file copied under another job's name: bound to its own job, it does not open.
      writeFileSync(path.join(results.root, ids.account_id, `${other}.sealed`), bytes);
      expect(await results.read(ids.account_id, other)).toEqual({ state: 'erased' });
      expect((await results.read(ids.account_id, ids.job_id)).state).toBe('opened');
    });
  });
});
