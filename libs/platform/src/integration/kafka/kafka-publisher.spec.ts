import kafkajs from 'kafkajs';
import type { LogEntry } from 'kafkajs';
import { openIntegrationPublisher } from '../index.js';
import { KafkaPublisher, quietLogCreator, type KafkaLogLevel } from './kafka-publisher.js';

const { logLevel } = kafkajs;

type Line = [KafkaLogLevel, string, Record<string, string | number | boolean>];

function capture(): { lines: Line[]; log: (entry: LogEntry) => void } {
  const lines: Line[] = [];
  const log = quietLogCreator((...line) => lines.push(line))(logLevel.WARN);
  return { lines, log };
}

function entry(level: LogEntry['level'], message: string, extra: Record<string, unknown> = {}): LogEntry {
  return { namespace: 'Producer', level, label: 'X', log: { timestamp: '2026-01-01T00:00:00.000Z', message, ...extra } };
}

describe('quietLogCreator', () => {
  it('passes only allow-listed scalar fields, so record contents never reach a log line', () => {
    const { lines, log } = capture();

    log(
      entry(logLevel.ERROR, 'Failed to send messages', {
        broker: '127.0.0.1:9092',
        retryCount: 2,
        error: 'Connection error',
        value: 'secret payload',
        messages: [{ key: 'k', value: 'secret payload' }],
        headers: { authorization: 'secret' },
        topic: { not: 'a scalar' },
      }),
    );

    expect(lines).toEqual([['error', 'kafkajs Producer: Failed to send messages', { broker: '127.0.0.1:9092', retryCount: 2, error: 'Connection error' }]]);
    expect(JSON.stringify(lines)).not.toContain('secret');
  });

  it('drops info and debug entries and keeps warnings', () => {
    const { lines, log } = capture();

    log(entry(logLevel.INFO, 'Starting'));
    log(entry(logLevel.DEBUG, 'Request Produce(key: 0, version: 7)'));
    log(entry(logLevel.WARN, 'Rebalancing'));

    expect(lines.map(([level, message]) => [level, message])).toEqual([['warn', 'kafkajs Producer: Rebalancing']]);
  });

  it('drops the warning about bounded idempotent retries, which is deliberate', () => {
    const { lines, log } = capture();

    log(entry(logLevel.WARN, 'Limiting retries for the idempotent producer may invalidate EoS guarantees'));

    expect(lines).toEqual([]);
  });
});

describe('openIntegrationPublisher', () => {
  it('opens nothing without brokers: no relay runs', () => {
    expect(openIntegrationPublisher({ clientId: 'test' })).toBeUndefined();
    expect(openIntegrationPublisher({ clientId: 'test', kafkaBrokers: [] })).toBeUndefined();
  });

  it('opens a Kafka publisher when brokers are configured, without connecting yet', async () => {
    // Port 1 on loopback: nothing listens, so any connection attempt would fail the test.
    const publisher = openIntegrationPublisher({ clientId: 'test', kafkaBrokers: ['127.0.0.1:1'], log: () => undefined });

    expect(publisher).toBeInstanceOf(KafkaPublisher);
    await expect(publisher!.publish([])).resolves.toBeUndefined();
    await expect(publisher!.close()).resolves.toBeUndefined();
    await expect(publisher!.publish([{ topic: 't', key: 'k', value: 'v', headers: {} }])).rejects.toThrow('closed');
  });

  it('fails ping when no broker answers', async () => {
    const publisher = new KafkaPublisher({ clientId: 'test', brokers: ['127.0.0.1:1'], log: () => undefined });
    try {
      await expect(publisher.ping()).rejects.toThrow();
    } finally {
      await publisher.close();
    }
  }, 30_000);
});
