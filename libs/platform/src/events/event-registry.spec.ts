import type { RecordedEvent } from '../event-store/event-store.port.js';
import { EventRegistry, UnknownEventTypeError } from './event-registry.js';

const stored = (data: Record<string, unknown>, schemaVersion?: number): RecordedEvent => ({
  id: 'e1',
  streamName: 'consent-a:c',
  type: 'ConsentGranted',
  data,
  metadata: schemaVersion === undefined ? {} : { schema_version: schemaVersion },
  revision: 0n,
  position: 1n,
  createdAt: new Date(0),
});

describe('EventRegistry', () => {
  const registry = new EventRegistry().register({
    type: 'ConsentGranted',
    version: 2,
    upcast: (data, from) => (from < 2 ? { ...data, purpose: 'unspecified' } : data),
  });

  it('upcasts events stored at an older version, including ones stored before versions were stamped', () => {
    expect(registry.upcast(stored({ customer_id: 'c' }, 1)).data).toEqual({ customer_id: 'c', purpose: 'unspecified' });
    expect(registry.upcast(stored({ customer_id: 'c' })).data).toEqual({ customer_id: 'c', purpose: 'unspecified' });
  });

  it('leaves current events alone', () => {
    const event = stored({ customer_id: 'c', purpose: 'loan_collections' }, 2);
    expect(registry.upcast(event)).toBe(event);
  });

  it('stamps the current version on new events and refuses unknown types', () => {
    expect(registry.metadataFor('ConsentGranted')).toEqual({ schema_version: 2 });
    expect(() => registry.metadataFor('Nope')).toThrow(UnknownEventTypeError);
    expect(() => registry.assertKnown(['ConsentGranted', 'Nope'], 'test')).toThrow(/Nope/);
  });

  it('refuses two definitions of one type', () => {
    expect(() => registry.register({ type: 'ConsentGranted', version: 3 })).toThrow(/twice/);
  });
});
