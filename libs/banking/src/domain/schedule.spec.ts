import { deciderSpec } from '../../../platform/src/testing/decider-spec.js';
import { DAY_MS, scheduleDecider, type ScheduleCommand, type ScheduleTerms } from './schedule.js';

const t0 = new Date('2026-11-23T09:00:00.000Z');
const at = (days: number) => new Date(t0.getTime() + days * DAY_MS);
const { given, history } = deciderSpec(scheduleDecider, t0);
const terms: ScheduleTerms = { customer_id: 'cust-1', loan_id: 'loan-1', every_days: 30, method: 'kyc_address', address: '6Q3-HQK-Q4ZA' };
const ids = { account_id: 'acct_1', schedule_id: 'rvs_0123456789abcdef0123456789abcdef' };
const create = (overrides: Partial<ScheduleTerms> = {}): ScheduleCommand => ({ type: 'CreateSchedule', ...ids, terms: { ...terms, ...overrides } });
const run = (n: number): ScheduleCommand => ({ type: 'RecordRun', ...ids, run: n, outcome: { verification_id: `vrf_${n}`, result: 'verified', score: 0.9, error: null } });
const cancel: ScheduleCommand = { type: 'CancelSchedule', ...ids };
const stop: ScheduleCommand = { type: 'StopSchedule', ...ids, reason: 'consent_revoked' };

describe('re-verification schedule decider', () => {
  it('schedules the first run every_days from now', () => {
    const { events, state } = given([]).when(create());
    expect(events).toEqual([{ type: 'ReverificationScheduled', data: { ...ids, ...terms, scheduled_at: t0.toISOString(), first_due_at: at(30).toISOString() } }]);
    expect(state).toMatchObject({ status: 'active', runs: 0, next_due_at: at(30).toISOString() });
  });

  it('refuses an interval outside 1 to 365 days', () => {
    expect(given([]).when(create({ every_days: 0 })).error).toMatchObject({ code: 'INVALID_PARAM', field: 'every_days' });
    expect(given([]).when(create({ every_days: 366 })).error).toMatchObject({ field: 'every_days' });
  });

  it('records each run once, the next one due on the fixed grid however late this one ran', () => {
    const past = history(create());
    const first = given(past).when(run(1), at(31.5));
    expect(first.events).toEqual([
      { type: 'ReverificationCompleted', data: { ...ids, customer_id: 'cust-1', loan_id: 'loan-1', run: 1, due_at: at(30).toISOString(), ran_at: at(31.5).toISOString(), verification_id: 'vrf_1', result: 'verified', score: 0.9, error: null, next_due_at: at(60).toISOString() } },
    ]);
    // The job ran again after a crash: nothing twice, and no run out of turn.
    const after = [...past, ...first.events];
    expect(given(after).when(run(1), at(32)).events).toEqual([]);
    expect(given(after).when(run(3), at(32)).events).toEqual([]);
    expect(given(after).when(run(2), at(60)).state).toMatchObject({ runs: 2, next_due_at: at(90).toISOString(), last_run: { run: 2 } });
  });

  it('records no run after a cancellation; cancelling twice or an unknown schedule records nothing', () => {
    const cancelled = history(create(), [cancel, at(1)]);
    expect(given(cancelled).state).toMatchObject({ status: 'cancelled', cancelled_at: at(1).toISOString() });
    expect(given(cancelled).when(run(1), at(30)).events).toEqual([]);
    expect(given(cancelled).when(cancel).events).toEqual([]);
    expect(given([]).when(cancel).events).toEqual([]);
  });

  it('stops an active schedule with its reason, after which no run is recorded; a cancelled or stopped one stays as it is', () => {
    const stopped = given(history(create())).when(stop, at(30));
    expect(stopped.events).toEqual([{ type: 'ReverificationScheduleStopped', data: { ...ids, stopped_at: at(30).toISOString(), reason: 'consent_revoked' } }]);
    expect(stopped.state).toMatchObject({ status: 'stopped', stopped: { at: at(30).toISOString(), reason: 'consent_revoked' } });
    const after = history(create(), [stop, at(30)]);
    expect(given(after).when(run(1), at(31)).events).toEqual([]);
    expect(given(after).when(stop, at(31)).events).toEqual([]);
    expect(given(after).when(cancel, at(31)).events).toEqual([]);
    expect(given(history(create(), [cancel, at(1)])).when(stop, at(30)).events).toEqual([]);
    expect(given([]).when(stop).events).toEqual([]);
  });

  it('turns a stop for the revocation into one for the erasure, keeping when it stopped; nothing else changes a stop', () => {
    const erase: ScheduleCommand = { type: 'StopSchedule', ...ids, reason: 'data_erased' };
    const revoked = history(create(), [stop, at(2)]);
    const erased = given(revoked).when(erase, at(3));
    expect(erased.events).toEqual([{ type: 'ReverificationScheduleStopped', data: { ...ids, stopped_at: at(3).toISOString(), reason: 'data_erased' } }]);
    expect(erased.state).toMatchObject({ status: 'stopped', stopped: { at: at(2).toISOString(), reason: 'data_erased' } });
    expect(given([...revoked, ...erased.events]).when(erase, at(4)).events).toEqual([]);
    expect(given([...revoked, ...erased.events]).when(stop, at(4)).events).toEqual([]);
    expect(given(history(create(), [cancel, at(1)])).when(erase, at(3)).events).toEqual([]);
  });
});
