import { greatCircleM } from '../../../platform/src/geo/geodesy.js';

/**
 * Fraud checks of POST /v2/kyc/verify and POST /v2/verify/proximity
 * (interface.md, "Fraud check": velocity, IP-bulk, device-bulk, synthetic
 * identity, failing open). Each check reads its signals from a read model
 * built from earlier verifications of the same account; these functions judge
 * what was read. Identifiers (customer, device, IP, phone, e-mail) arrive as
 * keyed hashes: the signals never hold them in the clear.
 *
 * A check that could not read its signals is `skipped` and listed in
 * `degraded_checks`: `degraded: true` means fewer signals ran than usual, not
 * that nothing suspicious was found.
 */
export const FRAUD_CHECKS = ['velocity', 'ip_bulk', 'device_bulk', 'synthetic_identity'] as const;
export type FraudCheckName = (typeof FRAUD_CHECKS)[number];

/**
 * Velocity: two observations of the same customer, or of the same device,
 * imply a ground speed above 300 km/h (faster than any road or rail trip here;
 * flights aside, which a customer rarely takes between two verifications)
 * once both fixes' accuracy radii are granted, over a jump of more than 1 km
 * (GPS jumps of a few hundred metres between two quick fixes are common).
 * The earlier observations are those of earlier verifications and the pings
 * monitoring recorded for the customer under a granted consent (issue 47):
 * a phone that pinged in Kumasi 15 s ago is not in Accra now.
 */
export const VELOCITY_MAX_KMH = 300;
export const VELOCITY_MIN_JUMP_M = 1000;
/**
 * Recorded pings are read from this long before the request's oldest
 * observation: further apart in time, a pair would need more than 3,600 km
 * between them to exceed 300 km/h.
 */
export const VELOCITY_PINGS_WINDOW_MS = 12 * 60 * 60_000;
/** At most this many recorded pings, the newest, are weighed (a phone pinging every minute fills 12 h with 720). */
export const VELOCITY_PINGS_LIMIT = 500;
/** IP-bulk: 20 or more distinct customers of one account verified from one client IP within an hour. */
export const IP_BULK_WINDOW_MS = 60 * 60_000;
export const IP_BULK_MIN_CUSTOMERS = 20;
/** Device-bulk: 5 or more distinct customers of one account on one device_id within 7 days. */
export const DEVICE_BULK_WINDOW_MS = 7 * 24 * 60 * 60_000;
export const DEVICE_BULK_MIN_CUSTOMERS = 5;
/** Synthetic identity: one phone, e-mail or device shared by 3 or more customer ids of one account within 90 days. */
export const SYNTHETIC_WINDOW_MS = 90 * 24 * 60 * 60_000;
export const SYNTHETIC_MIN_CUSTOMERS = 3;
/** Each check's signal read gets this long; a slower source is skipped (fail open). */
export const SIGNAL_DEADLINE_MS = 200;

export interface Observation {
  lat: number;
  lng: number;
  accuracy_m: number;
  observed_at: string;
}

/** Customers (by hash) linked to one identifier, each with when it was last seen with it. */
export type LinkedCustomers = Readonly<Record<string, string>>;

export type CheckStatus = 'clear' | 'flagged' | 'not_applicable' | 'skipped';
export interface CheckResult {
  status: CheckStatus;
  detail: string;
}

export interface FraudCheck {
  /** True when at least one check fired. */
  flagged: boolean;
  flags: FraudCheckName[];
  /** True when a check could not read its signals and was skipped: fewer signals ran, nothing is implied about fraud. */
  degraded: boolean;
  degraded_checks: FraudCheckName[];
  checks: Record<FraudCheckName, CheckResult>;
}

/** Ground speed in km/h two observations imply, granting both accuracy radii; 0 when they may be the same place. */
export function impliedSpeedKmh(a: Observation, b: Observation): { kmh: number; jump_m: number } {
  const jump_m = Math.max(0, greatCircleM(a.lat, a.lng, b.lat, b.lng) - a.accuracy_m - b.accuracy_m);
  if (jump_m === 0) return { kmh: 0, jump_m };
  const hours = Math.abs(Date.parse(a.observed_at) - Date.parse(b.observed_at)) / 3_600_000;
  return { kmh: hours === 0 ? Number.POSITIVE_INFINITY : jump_m / 1000 / hours, jump_m };
}

/**
 * `current`: this request's observations; `previous`: earlier ones of the same
 * customer or device. Pairs within `current` count too. Up to 500 × (500 +
 * 10 + 500) pairs: times are parsed once, not per pair.
 */
export function velocityCheck(current: readonly Observation[], previous: readonly Observation[]): CheckResult {
  const timed = (observation: Observation) => ({ ...observation, at: Date.parse(observation.observed_at) });
  const now = current.map(timed);
  const before = previous.map(timed);
  const pairs = now.length * before.length + (now.length * (now.length - 1)) / 2;
  if (pairs === 0) return { status: 'clear', detail: 'no earlier observation of this customer or device to compare with' };
  let worst = { kmh: 0, jump_m: 0 };
  const weigh = (a: (typeof now)[number], b: (typeof now)[number]) => {
    const jump_m = Math.max(0, greatCircleM(a.lat, a.lng, b.lat, b.lng) - a.accuracy_m - b.accuracy_m);
    if (jump_m <= VELOCITY_MIN_JUMP_M) return;
    const hours = Math.abs(a.at - b.at) / 3_600_000;
    const kmh = hours === 0 ? Number.POSITIVE_INFINITY : jump_m / 1000 / hours;
    if (kmh > worst.kmh) worst = { kmh, jump_m };
  };
  now.forEach((observation, index) => {
    for (const other of before) weigh(observation, other);
    for (let later = index + 1; later < now.length; later++) weigh(observation, now[later]);
  });
  if (worst.kmh > VELOCITY_MAX_KMH) {
    const speed = Number.isFinite(worst.kmh) ? `${Math.round(worst.kmh)} km/h` : 'no time at all';
    return { status: 'flagged', detail: `observations ${(worst.jump_m / 1000).toFixed(1)} km apart imply ${speed} (over ${VELOCITY_MAX_KMH} km/h)` };
  }
  return { status: 'clear', detail: `${pairs} pair(s) of observations, none faster than ${VELOCITY_MAX_KMH} km/h` };
}

/** Distinct customers linked since `since`, this one included. */
export function customersSince(linked: LinkedCustomers, current: string, since: Date): number {
  const cutoff = since.getTime();
  const recent = new Set(Object.entries(linked).filter(([, seen]) => Date.parse(seen) >= cutoff).map(([customer]) => customer));
  recent.add(current);
  return recent.size;
}

export function ipBulkCheck(linked: LinkedCustomers, customer: string, now: Date): CheckResult {
  const customers = customersSince(linked, customer, new Date(now.getTime() - IP_BULK_WINDOW_MS));
  return customers >= IP_BULK_MIN_CUSTOMERS
    ? { status: 'flagged', detail: `${customers} customers verified from this client IP within an hour (${IP_BULK_MIN_CUSTOMERS} or more fires)` }
    : { status: 'clear', detail: `${customers} customer(s) verified from this client IP within an hour` };
}

/** `linked` is undefined when the request names no device. */
export function deviceBulkCheck(linked: LinkedCustomers | undefined, customer: string, now: Date): CheckResult {
  if (!linked) return { status: 'not_applicable', detail: 'no device_id was sent' };
  const customers = customersSince(linked, customer, new Date(now.getTime() - DEVICE_BULK_WINDOW_MS));
  return customers >= DEVICE_BULK_MIN_CUSTOMERS
    ? { status: 'flagged', detail: `${customers} customers on this device within 7 days (${DEVICE_BULK_MIN_CUSTOMERS} or more fires)` }
    : { status: 'clear', detail: `${customers} customer(s) on this device within 7 days` };
}

export type IdentifierKind = 'phone' | 'email' | 'device';

/** One entry per identifier the request carries (phone, e-mail, device). */
export function syntheticIdentityCheck(links: ReadonlyArray<{ kind: IdentifierKind; linked: LinkedCustomers }>, customer: string, now: Date): CheckResult {
  if (links.length === 0) return { status: 'not_applicable', detail: 'no phone, email or device_id was sent' };
  const since = new Date(now.getTime() - SYNTHETIC_WINDOW_MS);
  const shared = links.map(({ kind, linked }) => ({ kind, customers: customersSince(linked, customer, since) })).filter(({ customers }) => customers >= SYNTHETIC_MIN_CUSTOMERS);
  return shared.length > 0
    ? { status: 'flagged', detail: shared.map(({ kind, customers }) => `this ${kind} is shared by ${customers} customer ids`).join('; ') + ` (${SYNTHETIC_MIN_CUSTOMERS} or more within 90 days fires)` }
    : { status: 'clear', detail: `${links.map(({ kind }) => kind).join(', ')} not shared by ${SYNTHETIC_MIN_CUSTOMERS} or more customer ids` };
}

/** The answer's `fraud_check`; a check missing from `results` was skipped. */
export function summarizeFraudCheck(results: Partial<Record<FraudCheckName, CheckResult>>): FraudCheck {
  const checks = Object.fromEntries(
    FRAUD_CHECKS.map((name) => [name, results[name] ?? { status: 'skipped', detail: 'its signals could not be read in time; the check did not run' }]),
  ) as Record<FraudCheckName, CheckResult>;
  const flags = FRAUD_CHECKS.filter((name) => checks[name].status === 'flagged');
  const degraded_checks = FRAUD_CHECKS.filter((name) => checks[name].status === 'skipped');
  return { flagged: flags.length > 0, flags, degraded: degraded_checks.length > 0, degraded_checks, checks };
}
