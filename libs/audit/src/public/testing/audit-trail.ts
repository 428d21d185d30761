import type { EventRegistry, EventStore } from '../../../../platform/src/index.js';
import type { AccessEntry } from '../../domain/access-events.js';
import { StoreAccessRecorder } from '../access-recorder.js';
import type { AuditTrail } from '../audit-trail.port.js';
import { StoreAuditTrail } from '../store-audit-trail.js';

/** The AuditTrail over a store, as the service builds it (another context's specs read the chains through it). */
export function auditTrailOver(events: EventStore): AuditTrail {
  return new StoreAuditTrail(events);
}

/** Records access entries into their chains as the service does, for another context's specs to read back. */
export function accessRecorderOver(events: EventStore, registry: EventRegistry): { record(entry: AccessEntry): Promise<void>; flush(): Promise<void> } {
  return new StoreAccessRecorder(events, registry);
}
