import type { CommandBus } from '@nestjs/cqrs';
import type { CustomerLocationChange, CustomerLocations } from '../../../monitoring/src/index.js';
import { LogFollower, type EventRegistry, type EventStore, type JsonLogger, type ReadStore, type RecordedEvent } from '../../../platform/src/index.js';
import type { StopReason } from '../domain/schedule.js';
import type { ReverificationSchedules } from '../public/reverification-schedules.read-model.js';
import { RecordReverificationRunCommand } from './record-run.handler.js';

export const CONSENT_STOPS_CHECKPOINT = 'banking_reverification_consent_stops';

/**
 * Stops a customer's re-verification schedules the moment their consent is
 * revoked or their location data erased (issue 31), rather than at the next
 * due run, which may be up to a year away: a checkpointed follower of
 * monitoring's change feed (its port, CustomerLocations), in the worker role.
 * Each revocation or erasure stops the customer's schedules found in the
 * schedules read model, reason `consent_revoked` or `data_erased`. Seeing an
 * event again stops nothing twice (the decider records a stop once). A
 * schedule created a moment before the revocation and not yet in the read
 * model is stopped by its first due run instead, which checks the consent.
 */
export class ReverificationConsentStops {
  readonly follower: LogFollower;

  constructor(
    events: EventStore,
    registry: EventRegistry,
    checkpoints: ReadStore,
    private readonly locations: Pick<CustomerLocations, 'changes'>,
    private readonly schedules: Pick<ReverificationSchedules, 'ofCustomer'>,
    private readonly bus: Pick<CommandBus, 'execute'>,
    logger?: Pick<JsonLogger, 'error' | 'warn'>,
  ) {
    this.follower = new LogFollower(
      events,
      registry,
      checkpoints,
      {
        name: 'banking re-verification consent stops',
        ...locations.changes.source(['consent', 'erased']),
        start: { from: 'checkpoint', key: CONSENT_STOPS_CHECKPOINT },
        sink: { handle: (event) => this.apply(event) },
      },
      logger,
    );
  }

  private async apply(event: RecordedEvent): Promise<void> {
    const change = await this.locations.changes.decode(event);
    const reason = change && stopReason(change);
    if (!change || !reason) return;
    // After an erasure, also the schedules the revocation stopped: their reason becomes data_erased.
    const statuses = reason === 'data_erased' ? (['active', 'stopped'] as const) : (['active'] as const);
    for (const status of statuses) {
      for await (const page of this.schedules.ofCustomer(change.account_id, change.customer_id, status)) {
        for (const schedule of page) {
          await this.bus.execute(new RecordReverificationRunCommand({ type: 'StopSchedule', account_id: change.account_id, schedule_id: schedule.id, reason }));
        }
      }
    }
  }
}

function stopReason(change: CustomerLocationChange): StopReason | undefined {
  if (change.kind === 'erased') return 'data_erased';
  if (change.kind === 'consent' && change.consent.status === 'revoked') return 'consent_revoked';
  return undefined;
}
