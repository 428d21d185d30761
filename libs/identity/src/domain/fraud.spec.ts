import {
  deviceBulkCheck,
  impliedSpeedKmh,
  ipBulkCheck,
  summarizeFraudCheck,
  syntheticIdentityCheck,
  velocityCheck,
  type LinkedCustomers,
  type Observation,
} from './fraud.js';

const now = new Date('2026-11-23T12:00:00.000Z');
const ago = (minutes: number) => new Date(now.getTime() - minutes * 60_000).toISOString();
const accra = (minutesAgo: number, accuracy_m = 10): Observation => ({ lat: 5.6037, lng: -0.187, accuracy_m, observed_at: ago(minutesAgo) });
const kumasi = (minutesAgo: number, accuracy_m = 10): Observation => ({ lat: 6.6885, lng: -1.6244, accuracy_m, observed_at: ago(minutesAgo) });
/** `count` customers, each last seen `minutesAgo`. */
const seen = (count: number, minutesAgo: number, prefix = 'c'): LinkedCustomers => Object.fromEntries(Array.from({ length: count }, (_, index) => [`${prefix}${index}`, ago(minutesAgo)]));

describe('fraud checks', () => {
  describe('velocity (over 300 km/h between two observations, after both accuracies, over a jump of more than 1 km)', () => {
    it('flags Accra then Kumasi (~200 km) a minute apart, and finds the trip possible over hours', () => {
      expect(velocityCheck([kumasi(1)], [accra(2)])).toMatchObject({ status: 'flagged' });
      expect(velocityCheck([kumasi(0)], [accra(4 * 60)])).toMatchObject({ status: 'clear' });
    });

    it('grants both accuracy radii, and ignores small jumps however quick', () => {
      const jittered = { ...accra(0), lat: 5.6037 + 800 / 111_195 };
      expect(velocityCheck([jittered], [accra(0)])).toMatchObject({ status: 'clear' });
      const far = { ...accra(0, 1500), lat: 5.6037 + 2990 / 111_195 };
      expect(impliedSpeedKmh(far, accra(1, 1500)).jump_m).toBe(0);
      expect(impliedSpeedKmh({ ...accra(0), lat: 5.6037 + 3000 / 111_195 }, accra(0)).kmh).toBe(Number.POSITIVE_INFINITY);
    });

    it('compares the request’s own positions with each other, and says when there is nothing to compare', () => {
      expect(velocityCheck([accra(10), kumasi(9)], [])).toMatchObject({ status: 'flagged' });
      expect(velocityCheck([accra(0)], [])).toMatchObject({ status: 'clear', detail: expect.stringMatching(/no earlier observation/) });
    });
  });

  it('IP-bulk: 20 distinct customers from one IP within an hour, this one included', () => {
    expect(ipBulkCheck(seen(18, 10), 'me', now)).toMatchObject({ status: 'clear', detail: expect.stringMatching(/^19 customer/) });
    expect(ipBulkCheck(seen(19, 10), 'me', now)).toMatchObject({ status: 'flagged' });
    // Seen before from this IP, the customer is not counted twice.
    expect(ipBulkCheck({ ...seen(18, 10), me: ago(5) }, 'me', now)).toMatchObject({ status: 'clear', detail: expect.stringMatching(/^19 customer/) });
    expect(ipBulkCheck(seen(30, 61), 'me', now)).toMatchObject({ status: 'clear' });
  });

  it('device-bulk: 5 customers on one device within 7 days; not applicable without a device', () => {
    expect(deviceBulkCheck(seen(4, 60 * 24 * 6), 'me', now)).toMatchObject({ status: 'flagged' });
    expect(deviceBulkCheck(seen(4, 60 * 24 * 8), 'me', now)).toMatchObject({ status: 'clear' });
    expect(deviceBulkCheck(seen(3, 1), 'me', now)).toMatchObject({ status: 'clear' });
    expect(deviceBulkCheck(undefined, 'me', now)).toMatchObject({ status: 'not_applicable' });
  });

  it('synthetic identity: one phone, e-mail or device shared by 3 customer ids within 90 days', () => {
    expect(syntheticIdentityCheck([{ kind: 'phone', linked: seen(2, 60 * 24 * 30) }], 'me', now)).toMatchObject({ status: 'flagged', detail: expect.stringMatching(/phone is shared by 3/) });
    expect(syntheticIdentityCheck([{ kind: 'email', linked: seen(1, 5) }, { kind: 'device', linked: seen(1, 5) }], 'me', now)).toMatchObject({ status: 'clear' });
    expect(syntheticIdentityCheck([{ kind: 'email', linked: seen(2, 60 * 24 * 91) }], 'me', now)).toMatchObject({ status: 'clear' });
    expect(syntheticIdentityCheck([], 'me', now)).toMatchObject({ status: 'not_applicable' });
  });

  it('the summary: flags, and checks without a result skipped and listed as degraded', () => {
    const summary = summarizeFraudCheck({ velocity: { status: 'flagged', detail: 'x' }, device_bulk: { status: 'not_applicable', detail: 'y' } });
    expect(summary).toMatchObject({ flagged: true, flags: ['velocity'], degraded: true, degraded_checks: ['ip_bulk', 'synthetic_identity'] });
    expect(summary.checks.ip_bulk.status).toBe('skipped');
    // Degraded says fewer signals ran, nothing about fraud.
    expect(summarizeFraudCheck({})).toMatchObject({ flagged: false, degraded: true, degraded_checks: ['velocity', 'ip_bulk', 'device_bulk', 'synthetic_identity'] });
  });
});
