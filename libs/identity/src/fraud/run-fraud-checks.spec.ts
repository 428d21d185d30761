import type { FraudSignals } from './fraud-signals.port.js';
import { runFraudChecks } from './run-fraud-checks.js';

const now = new Date('2026-11-23T12:00:00.000Z');
const input = {
  accountId: 'acct_a',
  signals: { customer_hash: 'me', device_hash: 'dev', ip_hash: 'ip', phone_hash: 'ph', email_hash: null },
  observations: [{ lat: 5.6037, lng: -0.187, accuracy_m: 10, observed_at: now.toISOString() }],
  now,
};
const quiet: FraudSignals = {
  velocity: { observationsOf: async () => [] },
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
});
