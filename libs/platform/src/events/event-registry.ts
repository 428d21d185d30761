import type { RecordedEvent } from '../event-store/event-store.port.js';

/**
 * Every stored event type is registered here with its current schema version
 * and an upcaster from older stored shapes (style.md, "Events and aggregates").
 * Readers (projections, the relay) see events only after upcasting, and
 * start-up refuses a projection that handles an unregistered type.
 */
export interface EventTypeDefinition {
  type: string;
  /** Current schema version, stored in each event's metadata as `schema_version`. */
  version: number;
  /** Turns data stored at an older version into the current shape. Identity when absent. */
  upcast?: (data: Record<string, unknown>, storedVersion: number) => Record<string, unknown>;
}

export class UnknownEventTypeError extends Error {}

export class EventRegistry {
  private readonly definitions = new Map<string, EventTypeDefinition>();

  register(...definitions: EventTypeDefinition[]): this {
    for (const definition of definitions) {
      const existing = this.definitions.get(definition.type);
      if (existing && existing !== definition) throw new Error(`event type ${definition.type} registered twice`);
      this.definitions.set(definition.type, definition);
    }
    return this;
  }

  has(type: string): boolean {
    return this.definitions.has(type);
  }

  version(type: string): number {
    const definition = this.definitions.get(type);
    if (!definition) throw new UnknownEventTypeError(`event type ${type} is not registered`);
    return definition.version;
  }

  /** Metadata stamped on new events of a type. */
  metadataFor(type: string): { schema_version: number } {
    return { schema_version: this.version(type) };
  }

  upcast(event: RecordedEvent): RecordedEvent {
    const definition = this.definitions.get(event.type);
    if (!definition?.upcast) return event;
    const stored = typeof event.metadata.schema_version === 'number' ? event.metadata.schema_version : 1;
    if (stored >= definition.version) return event;
    return { ...event, data: definition.upcast(event.data, stored) };
  }

  assertKnown(types: readonly string[], owner: string): void {
    const unknown = types.filter((type) => !this.definitions.has(type));
    if (unknown.length > 0) throw new UnknownEventTypeError(`${owner} handles unregistered event types: ${unknown.join(', ')}`);
  }
}
