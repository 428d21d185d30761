import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { CommandBus } from '@nestjs/cqrs';
import { InvalidParamError, type Job, type JobQueue, type JsonLogger } from '../../../platform/src/index.js';
import type { RecordJobCommand } from '../commands/record-job/record-job.handler.js';
import { jobDecider, jobStream, type JobCommand, type JobEvent, type JobState } from '../domain/job.js';
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

function setUp(kinds: JobKind[]) {
  const memory = memoryBus(now);
  const results = new JobResults(mkdtempSync(path.join(tmpdir(), 'jobs-processor-')));
  const processor = new JobProcessor(kinds, memory.bus, {} as JobQueue, results, { now: () => now }, logger);
  return { ...memory, results, processor };
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
    const { bus, state, events, results, processor } = setUp([doubling as JobKind]);
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
    const { bus, state, processor } = setUp([refusing]);
    await bus.execute({ input: { type: 'Queue', ...ids, kind: 'test.refuse', total: null } } as RecordJobCommand);
    await processor.run(job('test.refuse'));
    expect(state(ids.account_id, ids.job_id)).toMatchObject({ status: 'failed', error: { code: 'INVALID_PARAM', message: 'resolution must be an integer from 0 to 15' } });
  });

  it('lets the queue retry a run that broke, and fails the job with JOB_FAILED on the last attempt', async () => {
    const broken: JobKind = { kind: 'test.broken', run: async () => Promise.reject(new Error('store away')) };
    const { bus, state, processor } = setUp([broken]);
    await bus.execute({ input: { type: 'Queue', ...ids, kind: 'test.broken', total: null } } as RecordJobCommand);
    await expect(processor.run(job('test.broken', 0))).rejects.toThrow('store away');
    expect(state(ids.account_id, ids.job_id)).toMatchObject({ status: 'running', attempts: 1 });
    await processor.run(job('test.broken', JOB_ATTEMPTS - 1));
    expect(state(ids.account_id, ids.job_id)).toMatchObject({ status: 'failed', attempts: JOB_ATTEMPTS, error: { code: 'JOB_FAILED' } });
  });

  it('fails a job of a kind no worker runs', async () => {
    const { bus, state, processor } = setUp([]);
    await bus.execute({ input: { type: 'Queue', ...ids, kind: 'test.unknown', total: null } } as RecordJobCommand);
    await processor.run(job('test.unknown'));
    expect(state(ids.account_id, ids.job_id)).toMatchObject({ status: 'failed', error: { code: 'JOB_FAILED', message: 'no worker runs jobs of kind test.unknown' } });
  });
});
