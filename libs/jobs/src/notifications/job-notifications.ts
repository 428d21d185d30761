import { storedEventAt, type EventRegistry, type EventStore, type RecordedEvent } from '../../../platform/src/index.js';
import type { Notification, NotificationSource } from '../../../webhooks/src/index.js';
import type { JobFailed, JobSucceeded } from '../domain/job.js';
import { jobLocation } from '../public/job.answer.js';

/**
 * The jobs context's webhook notifications: `job.completed` when a job
 * finished, succeeded or failed (named like `delivery.confirmed` and
 * `reverification.completed`). A job names no customer. The payload is read
 * from the stored event when a delivery is attempted:
 *
 * `{event: "job.completed", job_id, kind, status (succeeded | failed),
 * href (GET it for the job), result_href (null unless succeeded), error
 * {code, message} | null, timestamp (when the job finished)}`.
 */
export class JobNotifications implements NotificationSource {
  static readonly notifies = ['job.completed'] as const;
  static readonly from = ['JobSucceeded', 'JobFailed'] as const;
  readonly streamPrefixes = ['job-'] as const;

  constructor(
    private readonly events: EventStore,
    private readonly registry: EventRegistry,
  ) {}

  notificationOf(event: RecordedEvent): Notification | undefined {
    if (event.type !== 'JobSucceeded' && event.type !== 'JobFailed') return undefined;
    const data = event.data as (JobSucceeded | JobFailed)['data'];
    return {
      account_id: data.account_id,
      // The notification contract names a customer; a job is filed under none.
      customer_id: '',
      event_type: 'job.completed',
      occurred_at: data.finished_at,
      stream: event.streamName,
      revision: event.revision.toString(),
      event_id: event.id,
    };
  }

  async payloadOf(notification: Notification): Promise<Record<string, unknown> | undefined> {
    const stored = await storedEventAt(this.events, notification);
    if (stored?.type !== 'JobSucceeded' && stored?.type !== 'JobFailed') return undefined;
    const event = this.registry.upcast(stored);
    return jobCompletedPayload(event.type as 'JobSucceeded' | 'JobFailed', event.data as (JobSucceeded | JobFailed)['data']);
  }
}

/** The documented `job.completed` payload. */
export function jobCompletedPayload(type: 'JobSucceeded' | 'JobFailed', data: (JobSucceeded | JobFailed)['data']): Record<string, unknown> {
  const href = jobLocation(data.job_id);
  return {
    event: 'job.completed',
    job_id: data.job_id,
    kind: data.kind,
    status: type === 'JobSucceeded' ? 'succeeded' : 'failed',
    href,
    result_href: type === 'JobSucceeded' ? `${href}/result` : null,
    error: type === 'JobFailed' ? (data as JobFailed['data']).error : null,
    timestamp: data.finished_at,
  };
}
