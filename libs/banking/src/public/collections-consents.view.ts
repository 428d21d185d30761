import type { OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import type { CustomerLocations } from '../../../monitoring/src/index.js';
import { LogFollower, type EventRegistry, type EventStore, type JsonLogger, type RecordedEvent } from '../../../platform/src/index.js';

/**
 * Which customers stand under a `loan_collections` consent, per account: an
 * in-memory view following the consent changes of monitoring's
 * CustomerLocations feed from the beginning (they hold no location and are
 * few: one per grant or revoke). Portfolio
 * risk asks it for a whole book at once; POST/GET /v2/collections/locate reads
 * the consent stream itself, so a revoke is honoured the moment it is
 * acknowledged.
 */
export class CollectionsConsents implements OnApplicationBootstrap, OnModuleDestroy {
  static readonly readModel = 'banking_collections_consents';
  readonly follower: LogFollower;
  private readonly granted = new Set<string>();

  constructor(events: EventStore, registry: EventRegistry, private readonly locations: Pick<CustomerLocations, 'changes'>, logger?: Pick<JsonLogger, 'error' | 'warn'>) {
    this.follower = new LogFollower(
      events,
      registry,
      undefined,
      {
        name: 'banking collections consents',
        ...locations.changes.source(['consent']),
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

  private async apply(event: RecordedEvent): Promise<void> {
    const change = await this.locations.changes.decode(event);
    if (change?.kind !== 'consent') return;
    const id = key(change.account_id, change.customer_id);
    if (change.consent.status === 'granted' && change.consent.purpose === 'loan_collections') this.granted.add(id);
    // A revoke, or a grant for another purpose, replaces the standing consent.
    else this.granted.delete(id);
  }
}

function key(accountId: string, customerId: string): string {
  return `${accountId}\u0000${customerId}`;
}
