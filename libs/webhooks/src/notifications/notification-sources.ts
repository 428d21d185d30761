import type { ContextManifest } from '../../../platform/src/index.js';
import { UNSOURCED_WEBHOOK_EVENT_TYPES, WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../domain/notification.js';
import type { NotificationSource } from '../public/notification-source.js';

/** One declared source, resolved. */
export interface ResolvedSource {
  context: string;
  source: NotificationSource;
  notifies: readonly WebhookEventType[];
  /** Stored event types it reads (notifications and erasures). */
  from: readonly string[];
}

/**
 * Every notification source of the process, gathered from the contexts'
 * manifests. Refuses to exist (so the process refuses to start) when a
 * webhook event type has no source or two, when a source claims a type
 * clients cannot subscribe to, or when a token does not resolve to a source.
 */
export class NotificationSources {
  private readonly byType = new Map<WebhookEventType, ResolvedSource>();

  private constructor(readonly all: readonly ResolvedSource[]) {
    for (const entry of all) for (const type of entry.notifies) this.byType.set(type, entry);
  }

  static fromManifests(manifests: readonly ContextManifest[], resolve: (token: unknown) => unknown): NotificationSources {
    const problems: string[] = [];
    const claimed = new Map<string, string[]>();
    const all: ResolvedSource[] = [];
    for (const manifest of manifests) {
      for (const entry of manifest.notifications ?? []) {
        for (const type of entry.notifies) claimed.set(type, [...(claimed.get(type) ?? []), manifest.name]);
        const unknown = entry.notifies.filter((type) => !(WEBHOOK_EVENT_TYPES as readonly string[]).includes(type));
        if (unknown.length > 0) problems.push(`context ${manifest.name} notifies unknown webhook event types: ${unknown.join(', ')}`);
        let source: unknown;
        try {
          source = resolve(entry.token);
        } catch (error) {
          problems.push(`context ${manifest.name}: its notification source does not resolve (${(error as Error).message})`);
          continue;
        }
        if (!isSource(source)) {
          problems.push(`context ${manifest.name}: its notification source token does not resolve to a NotificationSource`);
          continue;
        }
        all.push({ context: manifest.name, source, notifies: entry.notifies as readonly WebhookEventType[], from: entry.from });
      }
    }
    for (const type of WEBHOOK_EVENT_TYPES) {
      const by = claimed.get(type) ?? [];
      const unsourced = UNSOURCED_WEBHOOK_EVENT_TYPES.includes(type);
      if (by.length > 1) problems.push(`webhook event type ${type} has two sources: ${by.join(' and ')}`);
      if (by.length === 0 && !unsourced) problems.push(`webhook event type ${type} has no notification source`);
      if (by.length > 0 && unsourced) problems.push(`webhook event type ${type} is listed as unsourced but ${by.join(', ')} notifies it`);
    }
    if (problems.length > 0) throw new Error(`webhook notification sources do not fit together:\n- ${problems.join('\n- ')}`);
    return new NotificationSources(all);
  }

  /** The source that notifies `type`; undefined for a type nothing produces yet. */
  sourceOf(type: WebhookEventType): ResolvedSource | undefined {
    return this.byType.get(type);
  }

  /** Every stream prefix a source follows. */
  get streamPrefixes(): string[] {
    return [...new Set(this.all.flatMap((entry) => entry.source.streamPrefixes))];
  }

  /** Every stored event type a source reads. */
  get handles(): string[] {
    return [...new Set(this.all.flatMap((entry) => entry.from))];
  }
}

function isSource(value: unknown): value is NotificationSource {
  const candidate = value as Partial<NotificationSource> | null | undefined;
  return typeof candidate === 'object' && candidate !== null && Array.isArray(candidate.streamPrefixes) && typeof candidate.notificationOf === 'function' && typeof candidate.payloadOf === 'function';
}
