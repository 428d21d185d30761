import { deciderSpec } from '../../../platform/src/testing/decider-spec.js';
import { jobDecider, jobStream, parseJobId, type JobCommand } from './job.js';

const t0 = new Date('2026-12-07T10:00:00.000Z');
const later = (ms: number) => new Date(t0.getTime() + ms);
const { given, history } = deciderSpec(jobDecider, t0);
const ids = { account_id: 'acct_1', job_id: 'job_0123456789abcdef0123456789abcdef' };
const queue: JobCommand = { type: 'Queue', ...ids, kind: 'hexcode.bulk', total: 12000 };
const start = (attempt: number): JobCommand => ({ type: 'Start', ...ids, attempt });
const succeed: JobCommand = { type: 'Succeed', ...ids, result_bytes: 100, expires_at: '2026-12-14T10:00:00.000Z' };
const fail: JobCommand = { type: 'Fail', ...ids, error: { code: 'JOB_FAILED', message: 'no' } };

describe('job decider', () => {
  it('queues a job once, with its kind and count', () => {
    const { events, state } = given([]).when(queue);
    expect(events).toEqual([{ type: 'JobQueued', data: { ...ids, kind: 'hexcode.bulk', queued_at: t0.toISOString(), total: 12000 } }]);
    expect(state).toMatchObject({ status: 'queued', done: 0, total: 12000 });
    expect(given(events).when(queue).events).toEqual([]);
  });

  it('refuses to start, progress or finish a job never queued', () => {
    expect(given([]).when(start(1)).error).toMatchObject({ code: 'JOB_NOT_FOUND', status: 404 });
  });

  it('runs, keeps the first start time across attempts, counts progress and finishes once', () => {
    const past = history(queue, [start(1), later(100)], { type: 'Progress', ...ids, done: 5000, total: 12000 }, [start(2), later(5000)]);
    const { state } = given(past).when(succeed, later(6000));
    expect(state).toMatchObject({ status: 'succeeded', started_at: later(100).toISOString(), attempts: 2, done: 12000, finished_at: later(6000).toISOString(), result_bytes: 100 });
    const finished = history(queue, start(1), succeed);
    expect(given(finished).when(fail).events).toEqual([]);
    expect(given(finished).when(start(2)).events).toEqual([]);
  });

  it('records a failure with its error, and no progress that changes nothing', () => {
    const past = history(queue, start(1), { type: 'Progress', ...ids, done: 10, total: 12000 });
    expect(given(past).when({ type: 'Progress', ...ids, done: 10, total: 12000 }).events).toEqual([]);
    expect(given(past).when(fail).state).toMatchObject({ status: 'failed', error: { code: 'JOB_FAILED', message: 'no' } });
  });

  it('names the stream by account and job, and refuses a malformed id', () => {
    expect(jobStream('acct_1', ids.job_id)).toBe(`job-acct_1:${ids.job_id}`);
    expect(() => parseJobId('job_123')).toThrow(expect.objectContaining({ code: 'INVALID_PARAM', field: 'id' }));
  });
});
