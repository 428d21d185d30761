import { deciderSpec } from '../../../platform/src/testing/decider-spec.js';
import { ageSeconds, erasureDecider, positionDecider, type CheckIn } from './position.js';

const now = new Date('2026-11-23T09:00:00.000Z');
const { given, history } = deciderSpec(positionDecider, now);
const checkIn = (lat: number, lng: number, accuracy_m: number | null = null): CheckIn => ({ type: 'CheckIn', account_id: 'acct_1', lat, lng, accuracy_m });

describe('position decider', () => {
  it('records a check-in at the time it arrives; the state is the latest one', () => {
    const events = history(checkIn(5.6037, -0.187, 12), [checkIn(5.56, -0.2), new Date('2026-11-23T09:05:00.000Z')]);
    expect(events[0]).toEqual({ type: 'LocatorCheckedIn', data: { account_id: 'acct_1', lat: 5.6037, lng: -0.187, accuracy_m: 12, checked_in_at: now.toISOString() } });
    expect(given(events).state).toEqual({ last: { lat: 5.56, lng: -0.2, accuracy_m: null, checked_in_at: '2026-11-23T09:05:00.000Z' } });
  });

  it('guards its invariants whatever the edge let through', () => {
    expect(given([]).when(checkIn(91, 0)).error).toMatchObject({ code: 'INVALID_PARAM', field: 'lat' });
    expect(given([]).when(checkIn(0, Number.NaN)).error).toMatchObject({ code: 'INVALID_PARAM', field: 'lng' });
    expect(given([]).when(checkIn(0, 0, -1)).error).toMatchObject({ code: 'INVALID_PARAM', field: 'accuracy_m' });
  });

  it('gives the age of a position in whole seconds, never negative', () => {
    const position = { lat: 0, lng: 0, accuracy_m: null, checked_in_at: now.toISOString() };
    expect(ageSeconds(position, new Date(now.getTime() + 90_999))).toBe(90);
    expect(ageSeconds(position, new Date(now.getTime() - 2_000))).toBe(0);
  });

  it('records an erasure with who and when, and no location', () => {
    const [event] = deciderSpec(erasureDecider, now).given([]).when({ type: 'RecordErasure', account_id: 'acct_1', events_erased: 3, erased_by: 'tok_ab12…' }).events;
    expect(event).toEqual({ type: 'LocatorPositionsErased', data: { account_id: 'acct_1', erased_at: now.toISOString(), events_erased: 3, erased_by: 'tok_ab12…' } });
  });
});
