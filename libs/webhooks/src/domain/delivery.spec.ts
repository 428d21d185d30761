import { deciderSpec } from '../../../platform/src/testing/decider-spec.js';
import type { Notification } from './notification.js';
import {
  deliveryDecider,
  deliveryIdOf,
  DeliveryNotFoundError,
  deliveryStream,
  initialDeliveryState,
  parseDeliveryId,
  shouldAttempt,
  type AttemptResult,
  type DeliveryCommand,
} from './delivery.js';
import { WebhookNotConfiguredError } from './webhook.js';

const notification: Notification = {
  account_id: 'acct_1',
  customer_id: 'cust-1',
  event_type: 'consent_revoked',
  occurred_at: '2026-11-22T08:00:00.000Z',
  stream: 'consent-acct_1:cust-1',
  revision: '1',
  event_id: '6f1c2d9e-0000-4000-8000-000000000001',
};
const id = deliveryIdOf(notification);
const at = (second: number) => new Date(Date.UTC(2026, 10, 22, 8, 0, second));
const result = (status: number | null, second: number, next: Date | null = null): AttemptResult => ({
  attempt_id: `attempt-${second}`,
  attempted_at: at(second),
  status_code: status,
  error: status === null ? 'timeout' : null,
  duration_ms: 12,
  next_attempt_at: next,
});
const attempt = (status: number | null, second: number, manual = false, next: Date | null = null): DeliveryCommand => ({
  type: 'RecordAttempt',
  account_id: 'acct_1',
  delivery_id: id,
  notification,
  manual,
  result: result(status, second, next),
});
const retry = (webhook_configured = true): DeliveryCommand => ({ type: 'RequestRetry', account_id: 'acct_1', delivery_id: id, webhook_configured });
const { given, history } = deciderSpec(deliveryDecider, at(0));
const stateOf = (...commands: DeliveryCommand[]) => given(history(...commands)).state;

describe('delivery decider', () => {
  it('records a failed attempt with its next time, then a delivered one; numbers attempts from 1', () => {
    const events = history(attempt(500, 0, false, at(0)), attempt(null, 1, false, at(11)), attempt(204, 12));
    expect(events.map((event) => event.type === 'WebhookDeliveryAttempted' && [event.data.attempt, event.data.outcome, event.data.next_attempt_at])).toEqual([
      [1, 'failed', at(0).toISOString()],
      [2, 'failed', at(11).toISOString()],
      [3, 'delivered', null],
    ]);
    expect(events[1]).toMatchObject({ data: { error: 'timeout', status_code: null } });
    expect(given(events).state).toMatchObject({ status: 'delivered', attempts: 3 });
  });

  it('treats every non-2xx answer as failed, redirects included', () => {
    for (const status of [301, 302, 400, 404, 500]) expect(stateOf(attempt(status, 0)).status).toBe('failed');
    for (const status of [200, 201, 202, 204, 299]) expect(stateOf(attempt(status, 0)).status).toBe('delivered');
  });

  it('clears the error of a delivered attempt and the next time of a delivered one', () => {
    const { events } = given([]).when({ type: 'RecordAttempt', account_id: 'acct_1', delivery_id: id, notification, manual: false, result: { ...result(200, 0, at(5)), error: 'timeout' } });
    expect(events).toMatchObject([{ data: { error: null, next_attempt_at: null } }]);
  });

  it('moves failed → attempted on a retry request at the time it is decided', () => {
    const failed = given(history(attempt(500, 0)));
    expect(failed.state.status).toBe('failed');
    const retried = failed.when(retry(), at(30));
    expect(retried.events).toEqual([{ type: 'WebhookRetryRequested', data: { delivery_id: id, account_id: 'acct_1', requested_at: at(30).toISOString() } }]);
    expect(retried.state).toMatchObject({ status: 'attempted', attempts: 1 });
  });

  it('refuses a retry for an unknown delivery first, then one without a configured webhook', () => {
    expect(given([]).when(retry(false)).error).toBeInstanceOf(DeliveryNotFoundError);
    expect(given(history(attempt(500, 0))).when(retry(false)).error).toBeInstanceOf(WebhookNotConfiguredError);
  });

  it('abandons a delivery whose data was erased', () => {
    const abandoned = given([]).when({ type: 'Abandon', account_id: 'acct_1', delivery_id: id, notification, reason: 'data_erased' }, at(3));
    expect(abandoned.events).toEqual([{ type: 'WebhookDeliveryAbandoned', data: { delivery_id: id, notification, reason: 'data_erased', abandoned_at: at(3).toISOString() } }]);
    expect(abandoned.state).toEqual({ status: 'abandoned', notification, attempts: 0 });
  });

  it('stops automatic attempts once delivered but always makes a manual one', () => {
    const delivered = stateOf(attempt(200, 0));
    const failed = stateOf(attempt(500, 0));
    expect(shouldAttempt(delivered, false)).toBe(false);
    expect(shouldAttempt(delivered, true)).toBe(true);
    expect(shouldAttempt(failed, false)).toBe(true);
    expect(shouldAttempt(initialDeliveryState, false)).toBe(true);
  });
});

describe('delivery ids', () => {
  it('derives the same id from the same notification and another from another event or account', () => {
    expect(deliveryIdOf(notification)).toBe(id);
    expect(id).toMatch(/^dlv_[0-9a-f]{32}$/);
    expect(deliveryIdOf({ ...notification, event_id: 'other' })).not.toBe(id);
    expect(deliveryIdOf({ ...notification, account_id: 'acct_2' })).not.toBe(id);
    expect(deliveryStream('acct_1', id)).toBe(`webhook_delivery-acct_1:${id}`);
  });

  it.each([['dlv_123'], ['DLV_0123456789abcdef0123456789abcdef'], ['dlv_0123456789ABCDEF0123456789abcdef'], ['../etc'], ['']])('refuses the id %j', (value) => {
    expect(() => parseDeliveryId(value)).toThrow(expect.objectContaining({ code: 'INVALID_PARAM', field: 'deliveryId' }));
  });
});
