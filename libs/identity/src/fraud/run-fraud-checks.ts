import type { JsonLogger } from '../../../platform/src/index.js';
import {
  deviceBulkCheck,
  VELOCITY_PINGS_LIMIT,
  VELOCITY_PINGS_WINDOW_MS,
  ipBulkCheck,
  SIGNAL_DEADLINE_MS,
  summarizeFraudCheck,
  syntheticIdentityCheck,
  velocityCheck,
  type CheckResult,
  type FraudCheck,
  type FraudCheckName,
  type IdentifierKind,
  type Observation,
} from '../domain/fraud.js';
import type { VerificationSignals } from '../domain/verification.js';
import type { FraudSignals } from './fraud-signals.port.js';

class DeadlineExceeded extends Error {}

/** `work`, or a rejection once `ms` have passed: a hung source costs a check, never the request. */
function withinDeadline<T>(work: () => Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeadlineExceeded(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([Promise.resolve().then(work), deadline]).finally(() => clearTimeout(timer));
}

export interface FraudCheckInput {
  accountId: string;
  /** The customer as the caller names it: whose recorded pings velocity reads (the signals hold only hashes). */
  customerId: string;
  signals: VerificationSignals;
  /** This request's positions. */
  observations: Observation[];
  now: Date;
}

/**
 * Runs the four checks at once, each on its own source and deadline. A check
 * whose source fails or is late is left out, so the summary lists it as
 * skipped (degraded) and the request goes on: fail open (interface.md,
 * "Fraud check").
 */
export async function runFraudChecks(source: FraudSignals, input: FraudCheckInput, options: { deadlineMs?: number; logger?: Pick<JsonLogger, 'warn'> } = {}): Promise<FraudCheck> {
  const deadlineMs = options.deadlineMs ?? SIGNAL_DEADLINE_MS;
  const { accountId, signals, now } = input;
  const customer = signals.customer_hash;
  const identifiers = (
    [
      ['phone', signals.phone_hash],
      ['email', signals.email_hash],
      ['device', signals.device_hash],
    ] as Array<[IdentifierKind, string | null]>
  ).flatMap(([kind, hash]) => (hash === null ? [] : [{ kind, hash }]));

  const checks: Record<FraudCheckName, () => Promise<CheckResult>> = {
    velocity: async () => {
      if (input.observations.length === 0) return velocityCheck([], []);
      // Pings from the window before the oldest observation on (a pair further apart in time cannot be impossible travel
      // within reach: VELOCITY_PINGS_WINDOW_MS); either source failing skips the check, as one source always did.
      const since = new Date(Math.min(...input.observations.map((observation) => Date.parse(observation.observed_at))) - VELOCITY_PINGS_WINDOW_MS);
      const [verified, recorded] = await Promise.all([
        source.velocity.observationsOf(accountId, { customer_hash: customer, device_hash: signals.device_hash }),
        source.velocity.recordedPingsOf(accountId, input.customerId, since, VELOCITY_PINGS_LIMIT),
      ]);
      return velocityCheck(input.observations, [...verified, ...recorded]);
    },
    ip_bulk: async () =>
      signals.ip_hash === null ? { status: 'not_applicable', detail: 'no client IP is known' } : ipBulkCheck(await source.ipBulk.customersFromIp(accountId, signals.ip_hash), customer, now),
    device_bulk: async () => deviceBulkCheck(signals.device_hash === null ? undefined : await source.deviceBulk.customersOnDevice(accountId, signals.device_hash), customer, now),
    synthetic_identity: async () => syntheticIdentityCheck(identifiers.length === 0 ? [] : await source.syntheticIdentity.customersSharing(accountId, identifiers), customer, now),
  };
  const entries = await Promise.all(
    (Object.keys(checks) as FraudCheckName[]).map(async (name) => {
      try {
        return [name, await withinDeadline(checks[name], deadlineMs)] as const;
      } catch (error) {
        options.logger?.warn({ msg: 'fraud check skipped: its signals could not be read', check: name, err: error instanceof Error ? error.message : String(error) });
        return [name, undefined] as const;
      }
    }),
  );
  return summarizeFraudCheck(Object.fromEntries(entries.filter(([, result]) => result !== undefined)));
}
