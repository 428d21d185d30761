import { collectionName, type IndexSpec, type ReadCollection, type ReadStore } from '../../../platform/src/index.js';
import { evolveSchedule, initialScheduleState, type LastRun, type ScheduleEvent, type ScheduleState, type ScheduleStatus, type StopReason } from '../domain/schedule.js';

/**
 * The `reverification_schedules` read model (projections/reverification-schedules):
 * one document per schedule, for GET /v2/verify/schedules. The schedule's own
 * stream stays the authority for a single schedule and for running it.
 */
// Version 2: a schedule may be `stopped`, with `stopped_at` and `stopped_reason` (issue 31).
export const REVERIFICATION_SCHEDULES_READ_MODEL = { name: 'reverification_schedules', version: 2 } as const;
export const REVERIFICATION_SCHEDULE_INDEXES: IndexSpec[] = [
  { name: 'by_account', fields: ['account_id', 'status', 'scheduled_at'] },
  // Every active schedule, for the start-up reconciliation of the job queue.
  { name: 'by_status', fields: ['status', 'next_due_at'] },
];

export interface ScheduleDoc {
  [field: string]: unknown;
  id: string;
  account_id: string;
  status: ScheduleStatus;
  customer_id: string;
  loan_id: string | null;
  every_days: number;
  method: string;
  address: string;
  scheduled_at: string;
  first_due_at: string;
  next_due_at: string;
  runs: number;
  last_run: LastRun | null;
  cancelled_at: string | null;
  /** When the schedule stopped itself, and why (consent_revoked, data_erased); null otherwise. */
  stopped_at: string | null;
  stopped_reason: StopReason | null;
}

/** The document of a schedule from its state (one shape for the list and for GET by id). */
export function scheduleView(scheduleId: string, accountId: string, state: ScheduleState): ScheduleDoc | undefined {
  if (state.status === 'none') return undefined;
  return {
    id: scheduleId,
    account_id: accountId,
    status: state.status,
    ...state.terms,
    scheduled_at: state.scheduled_at,
    first_due_at: state.first_due_at,
    next_due_at: state.next_due_at,
    runs: state.runs,
    last_run: state.last_run,
    cancelled_at: state.cancelled_at,
    stopped_at: state.stopped?.at ?? null,
    stopped_reason: state.stopped?.reason ?? null,
  };
}

/** The document after one more event; the state is rebuilt from the document's fields. */
export function evolveScheduleDoc(current: ScheduleDoc | undefined, event: ScheduleEvent): ScheduleDoc | undefined {
  const { account_id, schedule_id } = event.data;
  const state: ScheduleState = current
    ? {
        status: current.status,
        terms: { customer_id: current.customer_id, loan_id: current.loan_id, every_days: current.every_days, method: current.method as 'kyc_address', address: current.address },
        scheduled_at: current.scheduled_at,
        first_due_at: current.first_due_at,
        runs: current.runs,
        next_due_at: current.next_due_at,
        last_run: current.last_run,
        cancelled_at: current.cancelled_at,
        stopped: current.stopped_at && current.stopped_reason ? { at: current.stopped_at, reason: current.stopped_reason } : null,
      }
    : initialScheduleState;
  return scheduleView(schedule_id, account_id, evolveSchedule(state, event));
}

export class ReverificationSchedules {
  private collection?: Promise<ReadCollection<ScheduleDoc>>;

  constructor(private readonly readStore: ReadStore) {}

  /** Newest first; `status` narrows to active, cancelled or stopped schedules. */
  async list(accountId: string, status: ScheduleStatus, limit: number, cursor?: string) {
    const collection = await this.open();
    return collection.find({ index: 'by_account', equals: [accountId, status], direction: 'desc', limit, ...(cursor ? { cursor } : {}) });
  }

  /** The schedules of one customer of an account in `status`, page by page (the account's list, filtered: an account has few). */
  async *ofCustomer(accountId: string, customerId: string, status: ScheduleStatus): AsyncGenerator<ScheduleDoc[]> {
    let cursor: string | undefined;
    do {
      const page = await this.list(accountId, status, 1000, cursor);
      const mine = page.items.filter((doc) => doc.customer_id === customerId);
      if (mine.length > 0) yield mine;
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
  }

  /** Every active schedule of every account, page by page. */
  async *active(): AsyncGenerator<ScheduleDoc[]> {
    const collection = await this.open();
    let cursor: string | undefined;
    do {
      const page = await collection.find({ index: 'by_status', equals: ['active'], limit: 1000, ...(cursor ? { cursor } : {}) });
      if (page.items.length > 0) yield page.items;
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
  }

  private open(): Promise<ReadCollection<ScheduleDoc>> {
    this.collection ??= this.readStore.collection<ScheduleDoc>(collectionName(REVERIFICATION_SCHEDULES_READ_MODEL), REVERIFICATION_SCHEDULE_INDEXES);
    return this.collection;
  }
}
