import { storedEventAt, type EventRegistry, type EventStore, type RecordedEvent } from '../../../platform/src/index.js';
import type { Notification, NotificationSource } from '../../../webhooks/src/index.js';
import type { ReverificationCompleted } from '../domain/schedule.js';

/**
 * The banking context's webhook notifications: `reverification.completed`
 * when a scheduled re-verification recorded its result. The payload is read
 * from the stored event when a delivery is attempted:
 *
 * `{event: "reverification.completed", schedule_id, loan_id (null for a
 * customer schedule), customer_id, run, due_at, result (verified |
 * not_verified | insufficient_evidence | failed), score, verification_id,
 * error {code, message} | null, next_due_at, timestamp (when the run was recorded)}`.
 */
export class BankingNotifications implements NotificationSource {
  static readonly notifies = ['reverification.completed'] as const;
  static readonly from = ['ReverificationCompleted'] as const;
  readonly streamPrefixes = ['reverification_schedule-'] as const;

  constructor(
    private readonly events: EventStore,
    private readonly registry: EventRegistry,
  ) {}

  notificationOf(event: RecordedEvent): Notification | undefined {
    if (event.type !== 'ReverificationCompleted') return undefined;
    const data = event.data as ReverificationCompleted['data'];
    return {
      account_id: data.account_id,
      customer_id: data.customer_id,
      event_type: 'reverification.completed',
      occurred_at: data.ran_at,
      stream: event.streamName,
      revision: event.revision.toString(),
      event_id: event.id,
    };
  }

  async payloadOf(notification: Notification): Promise<Record<string, unknown> | undefined> {
    const stored = await storedEventAt(this.events, notification);
    if (stored?.type !== 'ReverificationCompleted') return undefined;
    return reverificationCompletedPayload(this.registry.upcast(stored).data as ReverificationCompleted['data']);
  }
}

/** The documented `reverification.completed` payload. */
export function reverificationCompletedPayload(data: ReverificationCompleted['data']): Record<string, unknown> {
  return {
    event: 'reverification.completed',
    schedule_id: data.schedule_id,
    loan_id: data.loan_id,
    customer_id: data.customer_id,
    run: data.run,
    due_at: data.due_at,
    result: data.result,
    score: data.score,
    verification_id: data.verification_id,
    error: data.error,
    next_due_at: data.next_due_at,
    timestamp: data.ran_at,
  };
}
