import { collectionName, type IndexSpec, type ReadCollection, type ReadStore } from '../../../platform/src/index.js';
import { evolveSchedule, initialScheduleState, type LastRun, type ScheduleEvent, type ScheduleState, type ScheduleStatus, type StopReason } from '../domain/schedule.js';
import { isSealedSchedule, type ScheduleSealing } from '../reverification/schedule-sealing.js';

/**
 * The `reverification_schedules` read model (projections/reverification-schedules):
 * one document per schedule, for GET /v2/verify/schedules. The schedule's own
 * stream stays the authority for a single schedule and for running it.
 *
 * Version 3 (issue 47, docs/adr/0055): the document never names its customer
 * nor holds the address in the clear. It keeps monitoring's keyed `pseudonym`
 * of the customer (their revocation and erasure find the schedules by it),
 * the customer id sealed under banking's own key (`customer_ref`) and the
 * address sealed under the customer's data key (`key_id`, `sealed`), copied
 * from the stored `ReverificationScheduled`. `CustomerDataErased` drops the
 * sealed address (`erased_at`); the schedule stays, `stopped` with
 * `data_erased`. Schedules stored before sealing hold the customer id and the
 * address in the clear (`legacy_customer_id`, `legacy_address`); the erasure
 * drops the address. `reverification_schedules_v2` is no longer read.
 */
// Version 2: a schedule may be `stopped`, with `stopped_at` and `stopped_reason` (issue 31). Version 3: sealed (issue 47).
export const REVERIFICATION_SCHEDULES_READ_MODEL = { name: 'reverification_schedules', version: 3 } as const;
export const REVERIFICATION_SCHEDULE_INDEXES: IndexSpec[] = [
  { name: 'by_account', fields: ['account_id', 'status', 'scheduled_at'] },
  // Every active schedule, for the start-up reconciliation of the job queue.
  { name: 'by_status', fields: ['status', 'next_due_at'] },
  /** A customer's schedules, for their erasure. */
  { name: 'by_pseudonym', fields: ['account_id', 'pseudonym'] },
  /** A customer's schedules stored before sealing, for their erasure. */
  { name: 'by_legacy_customer', fields: ['account_id', 'legacy_customer_id'] },
];

export interface ScheduleDoc {
  [field: string]: unknown;
  id: string;
  account_id: string;
  status: ScheduleStatus;
  /** Monitoring's keyed pseudonym of the customer; null for a schedule stored before sealing. */
  pseudonym: string | null;
  /** The customer id sealed under banking's own key; null before sealing. */
  customer_ref: string | null;
  /** The customer's data key the address is sealed under, and the sealed address; null once erased and before sealing. */
  key_id: string | null;
  sealed: string | null;
  /** A schedule stored before sealing: its customer id, and its address (null once erased), in the clear. */
  legacy_customer_id: string | null;
  legacy_address: string | null;
  loan_id: string | null;
  every_days: number;
  method: string;
  scheduled_at: string;
  first_due_at: string;
  next_due_at: string;
  runs: number;
  last_run: LastRun | null;
  cancelled_at: string | null;
  /** When the schedule stopped itself, and why (consent_revoked, data_erased); null otherwise. */
  stopped_at: string | null;
  stopped_reason: StopReason | null;
  /** When the customer's data was erased (the address went with it); null otherwise. */
  erased_at: string | null;
}

/** A schedule as the API shows it, without its account (the caller's). */
export interface ScheduleView {
  id: string;
  account_id: string;
  status: ScheduleStatus;
  customer_id: string;
  loan_id: string | null;
  every_days: number;
  method: string;
  address: string | null;
  scheduled_at: string;
  first_due_at: string;
  next_due_at: string;
  runs: number;
  last_run: LastRun | null;
  cancelled_at: string | null;
  stopped_at: string | null;
  stopped_reason: StopReason | null;
}

/** The view of a schedule from its state (the stream folded through its codec): POST, GET and DELETE. */
export function scheduleView(scheduleId: string, accountId: string, state: ScheduleState): ScheduleView | undefined {
  if (state.status === 'none') return undefined;
  const { customer_id, loan_id, every_days, method, address } = state.terms;
  return {
    id: scheduleId,
    account_id: accountId,
    status: state.status,
    customer_id,
    loan_id,
    every_days,
    method,
    address,
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

/** The view of a read-model document, its customer and address opened (the list). */
export function scheduleDocView(doc: ScheduleDoc, opened: { customer_id: string; address: string | null }): ScheduleView {
  return {
    id: doc.id,
    account_id: doc.account_id,
    status: doc.status,
    customer_id: opened.customer_id,
    loan_id: doc.loan_id,
    every_days: doc.every_days,
    method: doc.method,
    address: opened.address,
    scheduled_at: doc.scheduled_at,
    first_due_at: doc.first_due_at,
    next_due_at: doc.next_due_at,
    runs: doc.runs,
    last_run: doc.last_run,
    cancelled_at: doc.cancelled_at,
    stopped_at: doc.stopped_at,
    stopped_reason: doc.stopped_reason,
  };
}

/**
 * The document after one more event, from the event as stored (sealed, or in
 * the clear before sealing): the schedule's life is the decider's own
 * (evolveSchedule); the customer and the address are copied as stored.
 */
export function evolveScheduleDoc(current: ScheduleDoc | undefined, event: { type: ScheduleEvent['type']; data: object }): ScheduleDoc | undefined {
  const data = event.data as Readonly<Record<string, unknown>>;
  const typed = { type: event.type, data } as unknown as ScheduleEvent;
  if (!current) {
    if (event.type !== 'ReverificationScheduled') return undefined;
    const state = evolveSchedule(initialScheduleState, typed);
    if (state.status === 'none') return undefined;
    const sealed = isSealedSchedule(data);
    return {
      id: String(data.schedule_id),
      account_id: String(data.account_id),
      status: state.status,
      pseudonym: sealed ? data.pseudonym : null,
      customer_ref: sealed ? data.customer_ref : null,
      key_id: sealed ? data.key_id : null,
      sealed: sealed ? data.sealed : null,
      legacy_customer_id: sealed ? null : state.terms.customer_id,
      legacy_address: sealed ? null : state.terms.address,
      loan_id: state.terms.loan_id,
      every_days: state.terms.every_days,
      method: state.terms.method,
      scheduled_at: state.scheduled_at,
      first_due_at: state.first_due_at,
      next_due_at: state.next_due_at,
      runs: state.runs,
      last_run: state.last_run,
      cancelled_at: state.cancelled_at,
      stopped_at: null,
      stopped_reason: null,
      erased_at: null,
    };
  }
  const before: ScheduleState = {
    status: current.status,
    // The terms do not change after the schedule's first event: the document keeps its own copy of them.
    terms: { customer_id: '', loan_id: current.loan_id, every_days: current.every_days, method: current.method as 'kyc_address', address: null },
    scheduled_at: current.scheduled_at,
    first_due_at: current.first_due_at,
    runs: current.runs,
    next_due_at: current.next_due_at,
    last_run: current.last_run,
    cancelled_at: current.cancelled_at,
    stopped: current.stopped_at && current.stopped_reason ? { at: current.stopped_at, reason: current.stopped_reason } : null,
  };
  // A second ReverificationScheduled on a stream is a replay: the decider records it once.
  if (event.type === 'ReverificationScheduled') return current;
  const after = evolveSchedule(before, typed);
  if (after.status === 'none') return current;
  return {
    ...current,
    status: after.status,
    runs: after.runs,
    next_due_at: after.next_due_at,
    last_run: after.last_run,
    cancelled_at: after.cancelled_at,
    stopped_at: after.stopped?.at ?? null,
    stopped_reason: after.stopped?.reason ?? null,
  };
}

/** The document once its customer's data was erased: the schedule and its runs, no address. */
export function eraseScheduleDoc(doc: ScheduleDoc, erasedAt: string): ScheduleDoc {
  return { ...doc, key_id: null, sealed: null, legacy_address: null, erased_at: erasedAt };
}

export class ReverificationSchedules {
  private collection?: Promise<ReadCollection<ScheduleDoc>>;

  constructor(
    private readonly readStore: ReadStore,
    /** Opens what the documents hold sealed, and names a customer by pseudonym; without it only legacy documents are found. */
    private readonly sealing?: Pick<ScheduleSealing, 'pseudonymOf' | 'customerOf' | 'openAddress'>,
  ) {}

  /** Newest first; `status` narrows to active, cancelled or stopped schedules. */
  async list(accountId: string, status: ScheduleStatus, limit: number, cursor?: string) {
    const collection = await this.open();
    return collection.find({ index: 'by_account', equals: [accountId, status], direction: 'desc', limit, ...(cursor ? { cursor } : {}) });
  }

  /**
   * The schedules of one customer of an account in `status`, page by page (the account's list, filtered: an account
   * has few), found by the customer's pseudonym, or by their id for a schedule stored before sealing.
   */
  async *ofCustomer(accountId: string, customerId: string, status: ScheduleStatus): AsyncGenerator<ScheduleDoc[]> {
    const pseudonym = this.sealing?.pseudonymOf(accountId, customerId);
    let cursor: string | undefined;
    do {
      const page = await this.list(accountId, status, 1000, cursor);
      const mine = page.items.filter((doc) => (pseudonym !== undefined && doc.pseudonym === pseudonym) || doc.legacy_customer_id === customerId);
      if (mine.length > 0) yield mine;
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
  }

  /** A document as the API shows it: the customer from `customer_ref`, the address opened (null once erased). */
  async view(doc: ScheduleDoc): Promise<ScheduleView> {
    if (doc.customer_ref === null) return scheduleDocView(doc, { customer_id: doc.legacy_customer_id ?? '', address: doc.legacy_address });
    if (!this.sealing) throw new Error('the schedules read model opens sealed documents with a ScheduleSealing');
    const customerId = this.sealing.customerOf(doc.account_id, doc.customer_ref);
    if (customerId === undefined) throw new Error(`schedule ${doc.id}: its customer reference does not open under banking's key`);
    const address = await this.sealing.openAddress({ account_id: doc.account_id, schedule_id: doc.id, customer_ref: doc.customer_ref, key_id: doc.key_id, sealed: doc.sealed });
    return scheduleDocView(doc, { customer_id: customerId, address });
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
