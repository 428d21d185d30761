import { describe, expect, it } from '@jest/globals';
import { describeWith } from '../../testing/server-suites.js';
import { describeEventStoreContract } from '../event-store.contract.js';
import { EventStoreDbEventStore } from './eventstoredb-event-store.js';

// Test wiring, not application configuration: the contract runs against a
// real server only when one is given (e.g. esdb://localhost:2113?tls=false).
// It writes only to randomly named streams, so a shared server is fine.
// Without one the contract is skipped, so jest counts its tests as skipped:
// a stand-in test with no assertion would have counted as passed.
const url = process.env.EVENTSTORE_URL;
const describeIf = describeWith('EVENTSTORE_URL', 'the EventStoreDB contract (eventstoredb-event-store.int-spec)');

describeIf('EventStoreDbEventStore against a server', () => {
  describeEventStoreContract('EventStoreDB', async () => EventStoreDbEventStore.connect(url!));
});

describe('EventStoreDbEventStore without a server', () => {
  it('fails ping when nothing listens, so /health reports the store down', async () => {
    // Port 1 on loopback: refused at once, no network beyond this machine.
    const store = EventStoreDbEventStore.connect('kurrentdb://127.0.0.1:1?tls=false');
    try {
      await expect(store.ping()).rejects.toThrow(/UNAVAILABLE|ECONNREFUSED/);
    } finally {
      await store.close();
    }
  });
});
