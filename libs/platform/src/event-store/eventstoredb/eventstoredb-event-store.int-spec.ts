import { describe, expect, it } from '@jest/globals';
import { describeEventStoreContract } from '../event-store.contract.js';
import { EventStoreDbEventStore } from './eventstoredb-event-store.js';

// Test wiring, not application configuration: the contract runs against a
// real server only when one is given (e.g. esdb://localhost:2113?tls=false).
// It writes only to randomly named streams, so a shared server is fine.
const url = process.env.EVENTSTORE_URL;

if (url) {
  describeEventStoreContract('EventStoreDB', async () => EventStoreDbEventStore.connect(url));
} else {
  describe('EventStore contract: EventStoreDB', () => {
    it('is not run: EVENTSTORE_URL is not set', () => {
      console.info('EVENTSTORE_URL not set: skipping EventStoreDB contract suite');
    });
  });
}

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
