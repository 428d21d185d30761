import { Type } from '@sinclair/typebox';
import { defineAnswer } from '../../../platform/src/index.js';
import { OrNull } from '../answer-parts.js';
import { STOP_REASONS } from '../domain/schedule.js';
import type { ScheduleView } from '../public/reverification-schedules.read-model.js';

/** A re-verification schedule as the API shows it (publicSchedule): POST, GET and DELETE /v2/verify/schedule*, and each item of the list. */
export const ScheduleObject = Type.Object({
  id: Type.String({ description: 'rvs_ and 32 hex digits' }),
  status: Type.Union([Type.Literal('active'), Type.Literal('cancelled'), Type.Literal('stopped')], { description: '`stopped`: the schedule stopped itself (see stopped_reason)' }),
  customer_id: Type.String(),
  loan_id: OrNull(Type.String({ description: 'The loan the schedule was made for; null when it names the customer directly' })),
  every_days: Type.Integer(),
  method: Type.String({ description: '`kyc_address`: the address verification of POST /v2/kyc/verify on the recorded pings (the one method so far)' }),
  address: OrNull(Type.String({ description: "What is verified: a hex code or address text; null once the customer's data was erased (POST /v2/consent/delete-data: it is stored sealed under their data key)" })),
  scheduled_at: Type.String({ format: 'date-time' }),
  first_due_at: Type.String({ format: 'date-time' }),
  next_due_at: Type.String({ format: 'date-time', description: 'Run n is due first_due_at + (n-1) × every_days' }),
  runs: Type.Integer({ description: 'Runs recorded so far' }),
  last_run: OrNull(
    Type.Object({
      run: Type.Integer(),
      ran_at: Type.String({ format: 'date-time' }),
      result: Type.Union([Type.Literal('verified'), Type.Literal('not_verified'), Type.Literal('insufficient_evidence'), Type.Literal('failed')]),
      score: OrNull(Type.Number()),
      verification_id: OrNull(Type.String({ description: "identity's verification record; null when the verification could not run" })),
    }),
  ),
  cancelled_at: OrNull(Type.String({ format: 'date-time' })),
  stopped_at: OrNull(Type.String({ format: 'date-time' })),
  stopped_reason: OrNull(Type.Union(STOP_REASONS.map((reason) => Type.Literal(reason)), { description: "consent_revoked: a due run found the customer's consent revoked, so no run follows" })),
});

export const SCHEDULE_EXAMPLE = {
  id: 'rvs_4b9e2c7a1f3d5e8b0c6a9f2d4e7b1c3a',
  status: 'active' as const,
  customer_id: 'cust-88213',
  loan_id: 'KMA-2026-004187',
  every_days: 30,
  method: 'kyc_address',
  address: 'GA4K7M2QX',
  scheduled_at: '2026-10-01T08:00:00.000Z',
  first_due_at: '2026-10-31T08:00:00.000Z',
  next_due_at: '2026-11-30T08:00:00.000Z',
  runs: 1,
  last_run: { run: 1, ran_at: '2026-10-31T08:00:03.000Z', result: 'verified' as const, score: 0.82, verification_id: 'kyc_6d2f8a1c4e7b9d0f3a5c' },
  cancelled_at: null,
  stopped_at: null,
  stopped_reason: null,
};

export const ReverificationScheduleSchema = defineAnswer('ReverificationSchedule', ScheduleObject, SCHEDULE_EXAMPLE);

/** A schedule as the API shows it (without the account id, which is the caller's): every schedule slice answers it. */
export function publicSchedule(doc: ScheduleView | undefined) {
  if (!doc) throw new Error('a schedule view of nothing');
  const { account_id: _account, ...shown } = doc;
  return shown;
}
