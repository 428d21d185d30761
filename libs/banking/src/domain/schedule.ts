import type { Decider } from '../../../platform/src/commands/decider.js';
import { InvalidParamError } from '../../../platform/src/errors.js';

/**
 * A re-verification schedule (interface.md, "Banking features":
 * /v2/verify/schedule*): every `every_days` days the customer's address is
 * verified again, as POST /v2/kyc/verify does, on the latest evidence (the
 * pings recorded for them under consent). One stream per (account, schedule).
 * Runs are numbered from 1; run n is due `first_due_at + (n-1) × every_days`,
 * so a late run does not shift the ones after it.
 */
export const SCHEDULE_ID = /^rvs_[0-9a-f]{32}$/;
export const MIN_EVERY_DAYS = 1;
export const MAX_EVERY_DAYS = 365;
export const DAY_MS = 86_400_000;
/** The one method so far: identity's address verification (KYC) on the recorded pings. */
export const REVERIFICATION_METHODS = ['kyc_address'] as const;
export type ReverificationMethod = (typeof REVERIFICATION_METHODS)[number];

export interface ScheduleTerms {
  customer_id: string;
  loan_id: string | null;
  every_days: number;
  method: ReverificationMethod;
  /**
   * What is verified: a hex code or address text, as POST /v2/kyc/verify
   * takes it. Stored sealed under the customer's data key (docs/adr/0055):
   * null once their data was erased.
   */
  address: string | null;
}

export interface ReverificationScheduled {
  type: 'ReverificationScheduled';
  data: ScheduleTerms & { account_id: string; schedule_id: string; scheduled_at: string; first_due_at: string };
}
export interface ReverificationCompleted {
  type: 'ReverificationCompleted';
  data: {
    account_id: string;
    schedule_id: string;
    customer_id: string;
    loan_id: string | null;
    run: number;
    due_at: string;
    ran_at: string;
    /** identity's verification record; null when the verification could not run (`error`). */
    verification_id: string | null;
    result: 'verified' | 'not_verified' | 'insufficient_evidence' | 'failed';
    score: number | null;
    /** Why a run failed (e.g. the address no longer resolves); null otherwise. */
    error: { code: string; message: string } | null;
    next_due_at: string;
  };
}
export interface ReverificationScheduleCancelled {
  type: 'ReverificationScheduleCancelled';
  data: { account_id: string; schedule_id: string; cancelled_at: string };
}
/**
 * The schedule stopped itself: the customer's consent was revoked (issue 31),
 * or their location data erased. Their pings are the evidence a run verifies
 * on, so no run can follow; the schedule says why instead of running on
 * nothing. Recorded when the revocation or erasure is seen (the banking
 * worker follows them), and by a due run that finds the consent revoked.
 * An erasure after a revocation records a second stop: the reason becomes
 * `data_erased`, the time of the stop stays.
 */
export interface ReverificationScheduleStopped {
  type: 'ReverificationScheduleStopped';
  data: { account_id: string; schedule_id: string; stopped_at: string; reason: StopReason };
}
export const STOP_REASONS = ['consent_revoked', 'data_erased'] as const;
export type StopReason = (typeof STOP_REASONS)[number];
export type ScheduleEvent = ReverificationScheduled | ReverificationCompleted | ReverificationScheduleCancelled | ReverificationScheduleStopped;
export const SCHEDULE_EVENT_TYPES = ['ReverificationScheduled', 'ReverificationCompleted', 'ReverificationScheduleCancelled', 'ReverificationScheduleStopped'] as const satisfies readonly ScheduleEvent['type'][];

export interface LastRun {
  run: number;
  ran_at: string;
  result: ReverificationCompleted['data']['result'];
  score: number | null;
  verification_id: string | null;
}

export type ScheduleStatus = 'active' | 'cancelled' | 'stopped';
export type ScheduleState =
  | { status: 'none' }
  | {
      status: ScheduleStatus;
      terms: ScheduleTerms;
      scheduled_at: string;
      first_due_at: string;
      runs: number;
      next_due_at: string;
      last_run: LastRun | null;
      cancelled_at: string | null;
      /** Set when the schedule stopped itself, with why. */
      stopped?: { at: string; reason: StopReason } | null;
    };
export const initialScheduleState: ScheduleState = { status: 'none' };

export type ScheduleCommand =
  | { type: 'CreateSchedule'; account_id: string; schedule_id: string; terms: ScheduleTerms }
  | { type: 'RecordRun'; account_id: string; schedule_id: string; run: number; outcome: Pick<ReverificationCompleted['data'], 'verification_id' | 'result' | 'score' | 'error'> }
  | { type: 'CancelSchedule'; account_id: string; schedule_id: string }
  | { type: 'StopSchedule'; account_id: string; schedule_id: string; reason: StopReason };

export function parseScheduleId(value: unknown): string {
  if (typeof value !== 'string' || !SCHEDULE_ID.test(value)) throw new InvalidParamError('id must be a schedule id (rvs_ and 32 hex digits)', 'id');
  return value;
}

/** `reverification_schedule-<account>:<schedule>`. */
export function scheduleStream(accountId: string, scheduleId: string): string {
  return `reverification_schedule-${accountId}:${parseScheduleId(scheduleId)}`;
}

/** When run `run` (1-based) is due. */
export function dueAt(firstDueAt: string, everyDays: number, run: number): string {
  return new Date(Date.parse(firstDueAt) + (run - 1) * everyDays * DAY_MS).toISOString();
}

export function evolveSchedule(state: ScheduleState, event: ScheduleEvent): ScheduleState {
  switch (event.type) {
    case 'ReverificationScheduled': {
      // The terms picked one by one: a stored event read without its key (the as-of replay) carries its envelope too.
      const { customer_id, loan_id, every_days, method, address, scheduled_at, first_due_at } = event.data;
      const terms: ScheduleTerms = { customer_id, loan_id, every_days, method, address: typeof address === 'string' ? address : null };
      return { status: 'active', terms, scheduled_at, first_due_at, runs: 0, next_due_at: first_due_at, last_run: null, cancelled_at: null };
    }
    case 'ReverificationCompleted': {
      if (state.status === 'none') return state;
      const { run, ran_at, result, score, verification_id, next_due_at } = event.data;
      return { ...state, runs: run, next_due_at, last_run: { run, ran_at, result, score, verification_id } };
    }
    case 'ReverificationScheduleCancelled':
      return state.status === 'active' ? { ...state, status: 'cancelled', cancelled_at: event.data.cancelled_at } : state;
    case 'ReverificationScheduleStopped':
      if (state.status === 'active') return { ...state, status: 'stopped', stopped: { at: event.data.stopped_at, reason: event.data.reason } };
      return state.status === 'stopped' && state.stopped ? { ...state, stopped: { at: state.stopped.at, reason: event.data.reason } } : state;
    default: {
      const _exhaustive: never = event;
      return _exhaustive;
    }
  }
}

export function decideSchedule(command: ScheduleCommand, state: ScheduleState, now: Date): ScheduleEvent[] {
  switch (command.type) {
    case 'CreateSchedule': {
      // A fresh id per request: a second create on the stream is a replayed request, answered as it was.
      if (state.status !== 'none') return [];
      const { every_days } = command.terms;
      if (!Number.isInteger(every_days) || every_days < MIN_EVERY_DAYS || every_days > MAX_EVERY_DAYS) {
        throw new InvalidParamError(`every_days must be a whole number of days from ${MIN_EVERY_DAYS} to ${MAX_EVERY_DAYS}`, 'every_days');
      }
      const scheduled_at = now.toISOString();
      return [
        {
          type: 'ReverificationScheduled',
          data: { account_id: command.account_id, schedule_id: command.schedule_id, ...command.terms, scheduled_at, first_due_at: new Date(now.getTime() + every_days * DAY_MS).toISOString() },
        },
      ];
    }
    case 'RecordRun': {
      // A run of a cancelled schedule, or one already recorded (the job ran again after a crash), records nothing.
      if (state.status !== 'active' || command.run !== state.runs + 1) return [];
      const { terms } = state;
      return [
        {
          type: 'ReverificationCompleted',
          data: {
            account_id: command.account_id,
            schedule_id: command.schedule_id,
            customer_id: terms.customer_id,
            loan_id: terms.loan_id,
            run: command.run,
            due_at: state.next_due_at,
            ran_at: now.toISOString(),
            ...command.outcome,
            next_due_at: dueAt(state.first_due_at, terms.every_days, command.run + 1),
          },
        },
      ];
    }
    case 'CancelSchedule':
      if (state.status === 'none') return [];
      return state.status === 'active' ? [{ type: 'ReverificationScheduleCancelled', data: { account_id: command.account_id, schedule_id: command.schedule_id, cancelled_at: now.toISOString() } }] : [];
    case 'StopSchedule':
      // Only an active schedule stops; a cancelled one stays cancelled (the lender's word came first). One stopped for the
      // revocation says data_erased once the data is gone too; nothing else changes a stop's reason.
      return state.status === 'active' || (state.status === 'stopped' && command.reason === 'data_erased' && state.stopped?.reason === 'consent_revoked') ? [{ type: 'ReverificationScheduleStopped', data: { account_id: command.account_id, schedule_id: command.schedule_id, stopped_at: now.toISOString(), reason: command.reason } }] : [];
    default: {
      const _exhaustive: never = command;
      return _exhaustive;
    }
  }
}

export const scheduleDecider: Decider<ScheduleCommand, ScheduleState, ScheduleEvent> = { initialState: initialScheduleState, evolve: evolveSchedule, decide: decideSchedule };
