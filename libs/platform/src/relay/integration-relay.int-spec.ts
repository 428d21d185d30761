import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describeWith } from '../testing/server-suites.js';
import kafkajs from 'kafkajs';
import { EmbeddedEventStore } from '../event-store/index.js';
import { KafkaPublisher } from '../integration/index.js';
import { EventRegistry } from '../events/event-registry.js';
import { JsonLogger } from '../logging/json-logger.js';
import { EmbeddedReadStore } from '../read-store/index.js';
import { IntegrationRelay, RELAY_CHECKPOINT } from './integration-relay.js';

// Needs a real broker (`.ci/run` starts one and sets KAFKA_BROKERS); skipped, and says so, without it.
const describeIf = describeWith('KAFKA_BROKERS', 'the integration relay tests (integration-relay.int-spec)');
const brokers = (process.env.KAFKA_BROKERS ?? '').split(',').filter(Boolean);

interface Relayed {
  key: string;
  eventId: string;
  body: { stream: string; revision: string; type: string; data: Record<string, unknown> };
}

async function consume(topic: string, count: number): Promise<Relayed[]> {
  const kafka = new kafkajs.Kafka({ brokers, clientId: 'relay-int-spec', logLevel: kafkajs.logLevel.NOTHING });
  const consumer = kafka.consumer({ groupId: `relay-int-spec-${randomUUID()}` });
  const received: Relayed[] = [];
  await consumer.connect();
  try {
    await consumer.subscribe({ topics: [topic], fromBeginning: true });
    await new Promise<void>((resolve, reject) => {
      const deadline = setTimeout(() => reject(new Error(`received ${received.length} of ${count}`)), 60_000);
      void consumer.run({
        eachMessage: async ({ message }) => {
          received.push({
            key: String(message.key),
            eventId: String(message.headers?.['event-id']),
            body: JSON.parse(String(message.value)) as Relayed['body'],
          });
          if (received.length >= count) {
            clearTimeout(deadline);
            resolve();
          }
        },
      });
    });
    // Anything published twice would arrive shortly after the expected count.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    return received;
  } finally {
    await consumer.disconnect();
  }
}

describeIf('IntegrationRelay to a real Kafka broker', () => {
  it('publishes every stored event once, keyed by stream, in per-stream order, resuming from its checkpoint', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'relay-'));
    const events = await EmbeddedEventStore.open(path.join(dir, 'events'));
    const checkpoints = await EmbeddedReadStore.open(path.join(dir, 'read-models'));
    const prefix = `relay-spec-${randomUUID().slice(0, 8)}`;
    const logger = new JsonLogger('silent');
    const streams = ['thing-a', 'thing-b', 'thing-c'];
    try {
      for (let index = 0; index < 30; index++) {
        await events.append(streams[index % 3], [{ type: 'ThingHappened', data: { index } }], 'any');
      }
      const publisher = new KafkaPublisher({ brokers, clientId: 'relay-spec', log: () => undefined });
      const relay = new IntegrationRelay(events, checkpoints, publisher, prefix, new EventRegistry(), logger);
      await relay.start();
      const head = await events.headPosition();
      for (let waited = 0; relay.position < head && waited < 30_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
      await relay.stop();
      await publisher.close();
      expect(await checkpoints.getCheckpoint(RELAY_CHECKPOINT)).toBe(head);

      for (let index = 30; index < 36; index++) {
        await events.append(streams[index % 3], [{ type: 'ThingHappened', data: { index } }], 'any');
      }
      const publisher2 = new KafkaPublisher({ brokers, clientId: 'relay-spec-2', log: () => undefined });
      const resumed = new IntegrationRelay(events, checkpoints, publisher2, prefix, new EventRegistry(), logger);
      await resumed.start();
      const head2 = await events.headPosition();
      for (let waited = 0; resumed.position < head2 && waited < 30_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
      await resumed.stop();
      await publisher2.close();

      const received = await consume(`${prefix}.thing`, 36);
      expect(received).toHaveLength(36);
      expect(new Set(received.map((message) => message.eventId)).size).toBe(36);
      for (const stream of streams) {
        const ofStream = received.filter((message) => message.key === stream);
        expect(ofStream.map((message) => message.body.revision)).toEqual(ofStream.map((_, revision) => String(revision)));
        expect(ofStream.every((message) => message.body.stream === stream && message.body.type === 'ThingHappened')).toBe(true);
      }
    } finally {
      await checkpoints.close();
      await events.close();
    }
  }, 120_000);
});
