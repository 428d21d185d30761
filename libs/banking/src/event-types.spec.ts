import { EventRegistry } from '../../platform/src/index.js';
import { readStoredEvents, upcastStoredEvents } from '../../../test/support/stored-events.js';
import { evolveLoan, initialLoanState, LOAN_EVENT_TYPES, type LoanEvent } from './domain/loan.js';
import { evolveSchedule, initialScheduleState, SCHEDULE_EVENT_TYPES, type ScheduleEvent } from './domain/schedule.js';
import { bankingEventTypes } from './event-types.js';
import { evolveLoanDoc, type CollectionLoanDoc } from './public/collection-loans.read-model.js';
import { evolveScheduleDoc, type ScheduleDoc } from './public/reverification-schedules.read-model.js';

/** Stored JSON from schema version 1 must still fold into today's state (style.md: upcasters against fixtures). */
const stored = readStoredEvents(new URL('./__fixtures__/banking-events.v1.json', import.meta.url));
const inStream = (prefix: string) => stored.filter((event) => event.stream?.startsWith(prefix));

describe('banking event types', () => {
  const registry = new EventRegistry().register(...bankingEventTypes);

  it('registers every event type of the context, each with a version, and has a stored fixture of each', () => {
    const types = [...LOAN_EVENT_TYPES, ...SCHEDULE_EVENT_TYPES];
    for (const type of types) expect(registry.version(type)).toBe(1);
    expect(bankingEventTypes.map((definition) => definition.type).sort()).toEqual([...types].sort());
    expect(new Set(stored.map((event) => event.type))).toEqual(new Set(types));
  });

  it('reads version-1 registrations into the latest terms, and into the read-model document', () => {
    const events = upcastStoredEvents<LoanEvent>(registry, inStream('collection_loan-'));
    expect(events.reduce(evolveLoan, initialLoanState)).toEqual({
      status: 'registered',
      terms: { customer_id: 'cust-1', zone: { type: 'hex', code: '6Q3-HQK-Q4ZA', h3_cell: '8d7576970b016bf' }, expected_collection_days: null, anchor: { lat: 5.6037, lng: -0.187 } },
      first_registered_at: '2026-11-23T09:00:00.000Z',
      registered_at: '2026-11-24T09:00:00.000Z',
      registrations: 2,
    });
    const doc = events.reduce<CollectionLoanDoc | undefined>((current, event) => evolveLoanDoc(current, event), undefined);
    // Stored before sealing (docs/adr/0055): the read model keeps such terms in the clear, found by the borrower id for an erasure.
    expect(doc).toMatchObject({ id: 'acct_fixturelender:loan-1', pseudonym: null, sealed: null, legacy_customer_id: 'cust-1', legacy_terms: { customer_id: 'cust-1', zone: { type: 'hex' } }, erased_at: null });
  });

  it('reads a version-1 schedule that ran once and was cancelled', () => {
    const events = upcastStoredEvents<ScheduleEvent>(registry, inStream('reverification_schedule-acct_fixturelender:rvs_0123'));
    const state = events.reduce(evolveSchedule, initialScheduleState);
    expect(state).toMatchObject({ status: 'cancelled', runs: 1, next_due_at: '2027-01-22T09:00:00.000Z', last_run: { run: 1, result: 'insufficient_evidence', verification_id: 'vrf_00112233445566778899aabbccddeeff' }, cancelled_at: '2026-12-24T10:00:00.000Z' });
    const doc = events.reduce<ScheduleDoc | undefined>((current, event) => evolveScheduleDoc(current, event), undefined);
    expect(doc).toMatchObject({ id: 'rvs_0123456789abcdef0123456789abcdef', account_id: 'acct_fixturelender', status: 'cancelled', runs: 1, every_days: 30 });
    // Stored before sealing (docs/adr/0055): the customer and the address stay in the clear, found by the id for an erasure.
    expect(doc).toMatchObject({ pseudonym: null, sealed: null, legacy_customer_id: expect.any(String), legacy_address: state.status === 'none' ? null : state.terms.address, erased_at: null });
    expect(state).toMatchObject({ terms: { address: expect.any(String) } });
  });

  it('reads a version-1 schedule that stopped itself on a revoked consent', () => {
    const events = upcastStoredEvents<ScheduleEvent>(registry, inStream('reverification_schedule-acct_fixturelender:rvs_ffee'));
    expect(events.reduce(evolveSchedule, initialScheduleState)).toMatchObject({ status: 'stopped', runs: 0, stopped: { at: '2026-11-30T09:00:05.000Z', reason: 'consent_revoked' } });
    const doc = events.reduce<ScheduleDoc | undefined>((current, event) => evolveScheduleDoc(current, event), undefined);
    expect(doc).toMatchObject({ status: 'stopped', stopped_at: '2026-11-30T09:00:05.000Z', stopped_reason: 'consent_revoked', cancelled_at: null });
  });
});
