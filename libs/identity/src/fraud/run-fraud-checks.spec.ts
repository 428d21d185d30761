import type { FraudSignals } from './fraud-signals.port.js';
import { runFraudChecks } from './run-fraud-checks.js';

const now = new Date('2026-11-23T12:00:00.000Z');
const input = {
  accountId: 'acct_a',
  customerId: 'cust-1',
  signals: { customer_hash: 'me', device_hash: 'dev', ip_hash: 'ip', phone_hash: 'ph', email_hash: null },
  observations: [{ lat: 5.6037, lng: -0.187, accuracy_m: 10, observed_at: now.toISOString() }],
  now,
};
const quiet: FraudSignals = {
  velocity: { observationsOf: async () => [], recordedPingsOf: async () => [] },
  ipBulk: { customersFromIp: async () => ({}) },
  deviceBulk: { customersOnDevice: async () => ({}) },
  syntheticIdentity: { customersSharing: async (_, identifiers) => identifiers.map(({ kind }) => ({ kind, linked: {} })) },
};

describe('running the fraud checks', () => {
  it('runs all four on their own sources', async () => {
    const seen = Object.fromEntries(Array.from({ length: 25 }, (_, index) => [`c${index}`, now.toISOString()]));
    const result = await runFraudChecks({ ...quiet, ipBulk: { customersFromIp: async () => seen } }, input);
    expect(result).toMatchObject({ flagged: true, flags: ['ip_bulk'], degraded: false, degraded_checks: [] });
    expect(Object.values(result.checks).map((check) => check.status)).toEqual(['clear', 'flagged', 'clear', 'clear']);
  });

  it('fails open per check: a failing source and a hanging one are skipped within the deadline, the others run', async () => {
    // The hanging source never settles: only the deadline can end this call.
    const result = await runFraudChecks(
      {
        ...quiet,
        deviceBulk: { customersOnDevice: () => Promise.reject(new Error('read store unreachable')) },
        syntheticIdentity: { customersSharing: () => new Promise(() => undefined) },
      },
      input,
      { deadlineMs: 50 },
    );
    expect(result).toMatchObject({ flagged: false, degraded: true, degraded_checks: ['device_bulk', 'synthetic_identity'] });
    expect(result.checks).toMatchObject({ velocity: { status: 'clear' }, ip_bulk: { status: 'clear' }, device_bulk: { status: 'skipped' }, synthetic_identity: { status: 'skipped' } });
  });

  it('a source that throws synchronously is skipped too; a check without its identifier does not ask its source', async () => {
    let asked = false;
    const result = await runFraudChecks(
      {
        ...quiet,
        velocity: {
          ...quiet.velocity,
          observationsOf: () => {
            throw new Error('boom');
          },
        },
        ipBulk: {
          customersFromIp: async () => {
            asked = true;
            return {};
          },
        },
      },
      { ...input, signals: { ...input.signals, ip_hash: null } },
    );
    expect(asked).toBe(false);
    expect(result).toMatchObject({ degraded_checks: ['velocity'], checks: { ip_bulk: { status: 'not_applicable' } } });
  });

  it("weighs the customer's recorded pings: one in Kumasi 15 s before a fix in Accra is impossible travel", async () => {
    const asked: Array<{ accountId: string; customerId: string; since: string; limit: number }> = [];
    const kumasi = { lat: 6.6885, lng: -1.6244, accuracy_m: 10, observed_at: new Date(now.getTime() - 15_000).toISOString() };
    const source: FraudSignals = {
      ...quiet,
      velocity: {
        ...quiet.velocity,
        recordedPingsOf: async (accountId, customerId, since, limit) => {
          asked.push({ accountId, customerId, since: since.toISOString(), limit });
          return [kumasi];
        },
      },
    };
    const result = await runFraudChecks(source, input);
    expect(result).toMatchObject({ flagged: true, flags: ['velocity'], degraded: false, checks: { velocity: { status: 'flagged', detail: expect.stringMatching(/km apart imply \d+ km\/h/) } } });
    // From 12 hours before the fix on, the newest 500.
    expect(asked).toEqual([{ accountId: 'acct_a', customerId: 'cust-1', since: '2026-11-23T00:00:00.000Z', limit: 500 }]);
    // The same ping hours earlier is a possible trip.
    const earlier = { ...source, velocity: { ...source.velocity, recordedPingsOf: async () => [{ ...kumasi, observed_at: '2026-11-23T06:00:00.000Z' }] } };
    expect((await runFraudChecks(earlier, input)).flagged).toBe(false);
  });

  it('skips velocity when the recorded pings cannot be read, and reads nothing for a request without positions', async () => {
    let asked = 0;
    const failing: FraudSignals = {
      ...quiet,
      velocity: {
        observationsOf: async () => {
          asked++;
          return [];
        },
        recordedPingsOf: () => Promise.reject(new Error('monitoring unreachable')),
      },
    };
    expect(await runFraudChecks(failing, input)).toMatchObject({ flagged: false, degraded: true, degraded_checks: ['velocity'] });
    const none = await runFraudChecks(failing, { ...input, observations: [] });
    expect(none).toMatchObject({ degraded: false, checks: { velocity: { status: 'clear' } } });
    expect(asked).toBe(1);
  });
});
