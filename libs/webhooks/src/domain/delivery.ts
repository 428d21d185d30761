import { createHash } from 'node:crypto';
import type { Decider } from '../../../platform/src/commands/decider.js';
import { DomainError, InvalidParamError } from '../../../platform/src/errors.js';
import type { StoredNotification } from './notification.js';
import { WebhookNotConfiguredError } from './webhook.js';

/**
 * One logical delivery: a notification on its way to an account's endpoint,
 * with every attempt recorded as an event (interface.md, "Webhook delivery").
 * Stream `webhook_delivery-<account>:<delivery id>`; no payload, no secret, no
 * location and no customer id in the clear is stored here, only the sealed
 * notification and how each attempt went.
 *
 * States as the specification names them: `delivered` after a 2xx (no further
 * automatic retry); `failed` after a non-2xx, a time-out or a refused address
 * (retried on the schedule while `next_attempt_at` is set); `attempted` once a
 * manual re-send is requested and not yet made; `abandoned` when there is
 * nothing to send any more (the customer's data was erased, or the account no
 * longer subscribes to the event type).
 */
export type DeliveryStatus = 'attempted' | 'delivered' | 'failed' | 'abandoned';

/** How an attempt that got no usable answer failed; never a message, which could carry an address. */
export const DELIVERY_ERRORS = [
  'timeout',
  'dns_failure',
  'address_refused',
  'connection_refused',
  'connection_reset',
  'tls_error',
  'network_error',
  'secret_unavailable',
] as const;
export type DeliveryError = (typeof DELIVERY_ERRORS)[number];

export type AbandonReason = 'data_erased' | 'not_subscribed';

export interface WebhookDeliveryAttempted {
  type: 'WebhookDeliveryAttempted';
  data: {
    delivery_id: string;
    /** Sealed since schema version 2; version 1 stored it in the clear (still read). */
    notification: StoredNotification;
    /** 1-based over the delivery's whole history, manual re-sends included. */
    attempt: number;
    /** The X-Webhook-Delivery header of this attempt. */
    attempt_id: string;
    attempted_at: string;
    manual: boolean;
    outcome: 'delivered' | 'failed';
    /** The receiver's HTTP status; null when none came back. */
    status_code: number | null;
    error: DeliveryError | null;
    duration_ms: number;
    /** When the queue retries a failed attempt; null when delivered or out of retries. */
    next_attempt_at: string | null;
  };
}
export interface WebhookDeliveryAbandoned {
  type: 'WebhookDeliveryAbandoned';
  data: { delivery_id: string; notification: StoredNotification; reason: AbandonReason; abandoned_at: string };
}
export interface WebhookRetryRequested {
  type: 'WebhookRetryRequested';
  data: { delivery_id: string; account_id: string; requested_at: string };
}
export type DeliveryEvent = WebhookDeliveryAttempted | WebhookDeliveryAbandoned | WebhookRetryRequested;
export const DELIVERY_EVENT_TYPES = ['WebhookDeliveryAttempted', 'WebhookDeliveryAbandoned', 'WebhookRetryRequested'] as const satisfies readonly DeliveryEvent['type'][];

export type DeliveryState =
  | { status: 'none' }
  | { status: DeliveryStatus; notification: StoredNotification; attempts: number };
export const initialDeliveryState: DeliveryState = { status: 'none' };

export class DeliveryNotFoundError extends DomainError {
  readonly code = 'WEBHOOK_DELIVERY_NOT_FOUND';
  readonly status = 404;
  constructor(deliveryId: string) {
    super(`no delivery ${deliveryId} for this account`);
  }
}

/** `dlv_` and 32 hex digits. */
export const DELIVERY_ID = /^dlv_[0-9a-f]{32}$/;

/**
 * Deterministic, so the fan-out seeing an event twice (at-least-once) names
 * the same delivery and the queue's job-id deduplication drops the second.
 */
export function deliveryIdOf(notification: Pick<StoredNotification, 'account_id' | 'event_id' | 'event_type'>): string {
  const digest = createHash('sha256').update(`${notification.account_id}\n${notification.event_type}\n${notification.event_id}`).digest('hex');
  return `dlv_${digest.slice(0, 32)}`;
}

export function parseDeliveryId(value: string): string {
  if (!DELIVERY_ID.test(value)) throw new InvalidParamError('deliveryId must be "dlv_" followed by 32 hex digits', 'deliveryId');
  return value;
}

export function deliveryStream(accountId: string, deliveryId: string): string {
  return `webhook_delivery-${accountId}:${deliveryId}`;
}

export function evolveDelivery(state: DeliveryState, event: DeliveryEvent): DeliveryState {
  switch (event.type) {
    case 'WebhookDeliveryAttempted':
      return { status: event.data.outcome, notification: event.data.notification, attempts: event.data.attempt };
    case 'WebhookDeliveryAbandoned':
      return { status: 'abandoned', notification: event.data.notification, attempts: state.status === 'none' ? 0 : state.attempts };
    case 'WebhookRetryRequested':
      return state.status === 'none' ? state : { ...state, status: 'attempted' };
    default: {
      const _exhaustive: never = event;
      return _exhaustive;
    }
  }
}

export interface AttemptResult {
  attempt_id: string;
  attempted_at: Date;
  status_code: number | null;
  error: DeliveryError | null;
  duration_ms: number;
  /** Set when the attempt failed and the queue will try again. */
  next_attempt_at: Date | null;
}

/** What the delivery processor records: an attempt it made, or why it made none. */
export type AttemptCommand =
  | { type: 'RecordAttempt'; account_id: string; delivery_id: string; notification: StoredNotification; manual: boolean; result: AttemptResult }
  | { type: 'Abandon'; account_id: string; delivery_id: string; notification: StoredNotification; reason: AbandonReason };
/**
 * POST /v2/webhooks/retry/{deliveryId}; `webhook_configured` is read from the account's webhook stream first, and
 * `customer_erased` from the erasure records (the customer was erased at or after the delivery's event; absent: no).
 */
export type RequestRetry = { type: 'RequestRetry'; account_id: string; delivery_id: string; webhook_configured: boolean; customer_erased?: boolean };
export type DeliveryCommand = AttemptCommand | RequestRetry;

/** interface.md, "Receiver rules" 4: a 2xx is success, anything else a failure. */
export function isSuccess(statusCode: number | null): boolean {
  return statusCode !== null && statusCode >= 200 && statusCode < 300;
}

/**
 * Re-sending is allowed whatever the state, a delivered one included (a
 * receiver that lost what it acknowledged asks for it again, as GitHub's and
 * Stripe's "redeliver" allow); each re-send is a new attempt with a new
 * X-Webhook-Delivery id. Only an unknown delivery is refused (one whose
 * customer was erased since is unknown: it names them), and a re-send
 * without an endpoint (it could only be abandoned).
 */
export function decideDelivery(command: DeliveryCommand, state: DeliveryState, now: Date): DeliveryEvent[] {
  switch (command.type) {
    case 'RecordAttempt': {
      const { result } = command;
      const delivered = isSuccess(result.status_code);
      return [
        {
          type: 'WebhookDeliveryAttempted',
          data: {
            delivery_id: command.delivery_id,
            notification: command.notification,
            attempt: (state.status === 'none' ? 0 : state.attempts) + 1,
            attempt_id: result.attempt_id,
            attempted_at: result.attempted_at.toISOString(),
            manual: command.manual,
            outcome: delivered ? 'delivered' : 'failed',
            status_code: result.status_code,
            error: delivered ? null : result.error,
            duration_ms: result.duration_ms,
            next_attempt_at: delivered || !result.next_attempt_at ? null : result.next_attempt_at.toISOString(),
          },
        },
      ];
    }
    case 'Abandon':
      return [
        {
          type: 'WebhookDeliveryAbandoned',
          data: { delivery_id: command.delivery_id, notification: command.notification, reason: command.reason, abandoned_at: now.toISOString() },
        },
      ];
    case 'RequestRetry':
      // A delivery of an erased customer is gone from the history (issue 47): as unknown as a made-up id.
      if (state.status === 'none' || command.customer_erased === true) throw new DeliveryNotFoundError(command.delivery_id);
      if (!command.webhook_configured) throw new WebhookNotConfiguredError();
      return [{ type: 'WebhookRetryRequested', data: { delivery_id: command.delivery_id, account_id: command.account_id, requested_at: now.toISOString() } }];
    default: {
      const _exhaustive: never = command;
      return _exhaustive;
    }
  }
}

/**
 * Whether a queued attempt should still be made. An automatic retry stops once
 * the delivery is delivered (a manual re-send may have got through first); a
 * manual re-send is always made.
 */
export function shouldAttempt(state: DeliveryState, manual: boolean): boolean {
  return manual || state.status !== 'delivered';
}

export const deliveryDecider: Decider<DeliveryCommand, DeliveryState, DeliveryEvent> = {
  initialState: initialDeliveryState,
  evolve: evolveDelivery,
  decide: decideDelivery,
};
