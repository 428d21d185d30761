import { randomUUID } from 'node:crypto';
import kafkajs from 'kafkajs';
import type { IHeaders } from 'kafkajs';
import { describeWith } from '../../testing/server-suites.js';
import type { IntegrationMessage } from '../integration-bus.port.js';
import { KafkaPublisher, type KafkaPublisherOptions } from './kafka-publisher.js';

const { Kafka, logLevel } = kafkajs;

// Needs a real broker: `.ci/services.sh start` runs one on 127.0.0.1:9092 and
// `.ci/run` exports KAFKA_BROKERS. Without it these tests are skipped, and say so.
const describeIf = describeWith('KAFKA_BROKERS', 'the Kafka publisher tests (kafka-publisher.int-spec)');
const brokers = (process.env.KAFKA_BROKERS ?? '').split(',').map((b) => b.trim()).filter(Boolean);

/** Generous: the first consumer group on a fresh broker creates __consumer_offsets. */
const TEST_TIMEOUT_MS = 90_000;
const READ_DEADLINE_MS = 60_000;

interface Received {
  topic: string;
  partition: number;
  key: string;
  value: string;
  headers: Record<string, string>;
}

describeIf('KafkaPublisher against a real broker', () => {
  const kafka = new Kafka({ brokers, clientId: 'kafka-publisher-int-spec', logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  const publishers: KafkaPublisher[] = [];

  const openPublisher = (options: Partial<KafkaPublisherOptions> = {}): KafkaPublisher => {
    const publisher = new KafkaPublisher({ brokers, clientId: `int-spec-${randomUUID()}`, log: () => undefined, ...options });
    publishers.push(publisher);
    return publisher;
  };
  const uniqueTopic = (name: string): string => `int-spec.${name}.${randomUUID()}`;

  beforeAll(() => admin.connect());
  afterAll(async () => {
    await Promise.allSettled(publishers.map((p) => p.close()));
    await admin.disconnect();
  });

  /** Reads from the beginning until `count` records arrived, or fails naming how many did. */
  async function readAll(topics: string[], count: number): Promise<Received[]> {
    const consumer = kafka.consumer({ groupId: `int-spec-${randomUUID()}` });
    const received: Received[] = [];
    try {
      await consumer.connect();
      await consumer.subscribe({ topics, fromBeginning: true });
      await new Promise<void>((resolve, reject) => {
        const deadline = setTimeout(
          () => reject(new Error(`received ${received.length} of ${count} records within ${READ_DEADLINE_MS} ms`)),
          READ_DEADLINE_MS,
        );
        consumer
          .run({
            eachMessage: async ({ topic, partition, message }) => {
              received.push({
                topic,
                partition,
                key: message.key?.toString() ?? '',
                value: message.value?.toString() ?? '',
                headers: headersToStrings(message.headers),
              });
              if (received.length >= count) {
                clearTimeout(deadline);
                resolve();
              }
            },
          })
          .catch(reject);
      });
    } finally {
      await consumer.disconnect();
    }
    return received;
  }

  /** Records written to the topic, from the partitions' offsets: proves nothing was written twice. */
  async function recordsIn(topic: string): Promise<number> {
    const offsets = await admin.fetchTopicOffsets(topic);
    return offsets.reduce((sum, p) => sum + Number(p.high) - Number(p.low), 0);
  }

  it(
    'delivers every message of concurrent batches once, with keys, headers and per-key order intact',
    async () => {
      const publisher = openPublisher({ numPartitions: 3 });
      const topic = uniqueTopic('order');
      const keys = ['route-accra', 'route-kumasi', 'route-tamale', 'route-tema', 'route-cape-coast'];
      const nextSeq = new Map(keys.map((k) => [k, 0]));
      const batches: IntegrationMessage[][] = [];
      for (let b = 0; b < 4; b++) {
        const batch: IntegrationMessage[] = [];
        for (let i = 0; i < 25; i++) {
          const key = keys[(i * 3 + b) % keys.length];
          const seq = nextSeq.get(key)!;
          nextSeq.set(key, seq + 1);
          const id = randomUUID();
          batch.push({
            topic,
            key,
            value: JSON.stringify({ id, key, seq, note: 'Kɔkɔɔ ✓' }),
            headers: { 'event-id': id, 'event-type': 'StopRenamed', seq: String(seq) },
          });
        }
        batches.push(batch);
      }
      const sent = batches.flat();

      // Not awaited one by one: the publisher itself must keep the calls in order.
      await Promise.all(batches.map((batch) => publisher.publish(batch)));

      const received = await readAll([topic], sent.length);
      expect(received).toHaveLength(sent.length);
      expect(await recordsIn(topic)).toBe(sent.length);

      const byId = new Map(sent.map((m) => [m.headers['event-id'], m]));
      for (const r of received) {
        const original = byId.get(r.headers['event-id']);
        expect(original).toBeDefined();
        expect(r).toEqual({ topic, partition: r.partition, key: original!.key, value: original!.value, headers: original!.headers });
      }
      expect(new Set(received.map((r) => r.headers['event-id'])).size).toBe(sent.length);

      for (const key of keys) {
        const ofKey = received.filter((r) => r.key === key);
        expect(new Set(ofKey.map((r) => r.partition)).size).toBe(1);
        const seqs = ofKey.map((r) => Number(r.headers.seq));
        expect(seqs).toEqual([...Array(nextSeq.get(key)).keys()]);
      }
      // With five keys over three partitions the keys really were spread out.
      expect(new Set(received.map((r) => r.partition)).size).toBeGreaterThan(1);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'sends one call spanning several topics to each of them, creating them with the broker defaults',
    async () => {
      const publisher = openPublisher();
      const [a, b] = [uniqueTopic('multi-a'), uniqueTopic('multi-b')];
      const messages: IntegrationMessage[] = [
        { topic: a, key: 'k1', value: 'a-1', headers: { n: '1' } },
        { topic: b, key: 'k1', value: 'b-1', headers: { n: '2' } },
        { topic: a, key: 'k2', value: 'a-2', headers: { n: '3' } },
      ];

      await publisher.publish(messages);

      const received = await readAll([a, b], messages.length);
      expect(received.filter((r) => r.topic === a).map((r) => r.value).sort()).toEqual(['a-1', 'a-2']);
      expect(received.filter((r) => r.topic === b).map((r) => r.value)).toEqual(['b-1']);
      expect(await recordsIn(a)).toBe(2);
      expect(await recordsIn(b)).toBe(1);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'publishes to a topic that someone else already created',
    async () => {
      const topic = uniqueTopic('existing');
      await admin.createTopics({ topics: [{ topic, numPartitions: 1 }], waitForLeaders: true });

      await openPublisher({ numPartitions: 3 }).publish([{ topic, key: 'k', value: 'first', headers: {} }]);
      // A second publisher knows nothing of the first and tries to create the topic again.
      await openPublisher({ numPartitions: 3 }).publish([{ topic, key: 'k', value: 'second', headers: {} }]);

      const received = await readAll([topic], 2);
      expect(received.map((r) => r.value)).toEqual(['first', 'second']);
      const [metadata] = (await admin.fetchTopicMetadata({ topics: [topic] })).topics;
      expect(metadata.partitions).toHaveLength(1);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'answers ping, and refuses to publish once closed',
    async () => {
      const publisher = openPublisher();
      await expect(publisher.ping()).resolves.toBeUndefined();

      await publisher.close();

      await expect(publisher.publish([{ topic: uniqueTopic('closed'), key: 'k', value: 'v', headers: {} }])).rejects.toThrow('closed');
      await expect(publisher.ping()).rejects.toThrow('closed');
    },
    TEST_TIMEOUT_MS,
  );
});

function headersToStrings(headers: IHeaders | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.map(String).join(',') : value.toString();
  }
  return out;
}
