import type { OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import type { ConsentGranted } from '../../../monitoring/src/index.js';
import { LogFollower, type EventRegistry, type EventStore, type JsonLogger, type RecordedEvent } from '../../../platform/src/index.js';

/**
 * Which customers stand under a `loan_collections` consent, per account: an
 * in-memory view following the consent streams from the beginning (consent
 * events hold no location and are few: one per grant or revoke). Portfolio
 * risk asks it for a whole book at once; POST/GET /v2/collections/locate reads
 * the consent stream itself, so a revoke is honoured the moment it is
 * acknowledged.
 */
export class CollectionsConsents implements OnApplicationBootstrap, OnModuleDestroy {
  static readonly readModel = 'banking_collections_consents';
  readonly follower: LogFollower;
  private readonly granted = new Set<string>();

  constructor(events: EventStore, registry: EventRegistry, logger?: Pick<JsonLogger, 'error' | 'warn'>) {
    this.follower = new LogFollower(
      events,
      registry,
      undefined,
      {
        name: 'banking collections consents',
        streamPrefixes: ['consent-'],
        handles: ['ConsentGranted', 'ConsentRevoked'],
        start: { from: 'beginning' },
        sink: { handle: (event) => this.apply(event) },
      },
      logger,
    );
  }

  onApplicationBootstrap(): Promise<void> {
    return this.follower.start();
  }

  onModuleDestroy(): Promise<void> {
    return this.follower.stop();
  }

  allows(accountId: string, customerId: string): boolean {
    return this.granted.has(key(accountId, customerId));
  }

  private apply(event: RecordedEvent): void {
    const data = event.data as unknown as ConsentGranted['data'];
    if (event.type === 'ConsentGranted' && data.purpose === 'loan_collections') this.granted.add(key(data.account_id, data.customer_id));
    // A revoke, or a grant for another purpose, replaces the standing consent.
    else this.granted.delete(key(data.account_id, data.customer_id));
  }
}

function key(accountId: string, customerId: string): string {
  return `${accountId}\u0000${customerId}`;
}
