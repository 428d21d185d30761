import kafkajs from 'kafkajs';
import type { Admin, LogEntry, logCreator, Message, Producer, TopicMessages } from 'kafkajs';
import type { IntegrationMessage, IntegrationPublisher } from '../integration-bus.port.js';

// kafkajs is CommonJS and spreads its error classes into module.exports, which
// Node's named-export detection cannot see: take what we need from the default.
const { Kafka, logLevel, Partitioners } = kafkajs;

export type KafkaLogLevel = 'error' | 'warn';

/**
 * Where kafkajs's own diagnostics go. It receives the library's message and a
 * few allow-listed scalar fields (broker, topic, error text, retry counters),
 * never a record's key, value or headers.
 */
export type KafkaLogSink = (level: KafkaLogLevel, message: string, context: Record<string, string | number | boolean>) => void;

export interface KafkaPublisherOptions {
  brokers: string[];
  clientId: string;
  /** Partitions of topics this publisher creates; default: the broker's `num.partitions`. */
  numPartitions?: number;
  /** Replicas of topics this publisher creates; default: the broker's `default.replication.factor`. */
  replicationFactor?: number;
  /**
   * How often a failed produce is retried before `publish` rejects (kafkajs
   * backoff from 300 ms, doubling; default 5, about 10 s). Bounded on purpose,
   * see the constructor.
   */
  retries?: number;
  log?: KafkaLogSink;
}

/**
 * The integration bus on Kafka.
 *
 * Ordering: messages of one key go to one partition (kafkajs's default
 * partitioner, murmur2 as in the Java client), and within a partition Kafka
 * keeps produce order. Across calls that holds only if a later batch cannot
 * overtake an earlier one that is being retried, so calls are serialised here,
 * the producer allows one request in flight per connection, and it is
 * idempotent: a retried batch the broker already wrote is dropped by its
 * sequence number instead of being written twice behind later ones.
 */
export class KafkaPublisher implements IntegrationPublisher {
  private readonly producer: Producer;
  private readonly admin: Admin;
  private readonly knownTopics = new Set<string>();
  private producerReady?: Promise<void>;
  private adminReady?: Promise<void>;
  /** Tail of the serialised publish calls; never rejects. */
  private queue: Promise<unknown> = Promise.resolve();
  private closing?: Promise<void>;

  constructor(private readonly options: KafkaPublisherOptions) {
    if (options.brokers.length === 0) throw new Error('KafkaPublisher needs at least one broker');
    const kafka = new Kafka({
      brokers: options.brokers,
      clientId: options.clientId,
      logLevel: logLevel.WARN,
      logCreator: quietLogCreator(options.log ?? stderrLog),
      // Connecting and admin requests (ping, createTopics): about 2.5 s of
      // backoff before giving up, so a health check answers promptly.
      retry: { retries: 3 },
    });
    this.producer = kafka.producer({
      idempotent: true,
      maxInFlightRequests: 1,
      // Topics are created by ensureTopics with the configured partitioning, never implicitly.
      allowAutoTopicCreation: false,
      createPartitioner: Partitioners.DefaultPartitioner,
      // kafkajs retries an idempotent producer forever by default. The relay
      // retries a failed publish itself, with its own backoff and a log line,
      // so a bounded retry here loses nothing and lets a broker outage surface
      // instead of hanging publish() and shutdown.
      retry: { retries: options.retries ?? 5 },
    });
    this.admin = kafka.admin();
  }

  publish(messages: IntegrationMessage[]): Promise<void> {
    if (this.closing) return Promise.reject(new Error('KafkaPublisher is closed'));
    if (messages.length === 0) return Promise.resolve();
    const batch = [...messages];
    const sent = this.queue.then(() => this.send(batch));
    this.queue = sent.catch(() => undefined);
    return sent;
  }

  /** A metadata round trip on the admin connection alone, so a health check fails within seconds. */
  async ping(): Promise<void> {
    if (this.closing) throw new Error('KafkaPublisher is closed');
    await this.connectAdmin();
    await this.admin.describeCluster();
  }

  close(): Promise<void> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  private async shutdown(): Promise<void> {
    // Let batches already accepted finish (or fail) before the connections go.
    await this.queue;
    const results = await Promise.allSettled([this.producer.disconnect(), this.admin.disconnect()]);
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
  }

  private async send(messages: IntegrationMessage[]): Promise<void> {
    await Promise.all([this.connectProducer(), this.connectAdmin()]);
    await this.ensureTopics(messages);
    const byTopic = new Map<string, Message[]>();
    for (const m of messages) {
      let list = byTopic.get(m.topic);
      if (!list) byTopic.set(m.topic, (list = []));
      list.push({ key: m.key, value: m.value, headers: { ...m.headers } });
    }
    const topicMessages: TopicMessages[] = [...byTopic].map(([topic, list]) => ({ topic, messages: list }));
    // acks -1: resolves only once every in-sync replica has the records.
    await this.producer.sendBatch({ acks: -1, topicMessages });
  }

  // Memoised while they succeed; a failed attempt is forgotten so the next call retries.
  private connectProducer(): Promise<void> {
    this.producerReady ??= this.producer.connect().catch((error: unknown) => {
      this.producerReady = undefined;
      throw error;
    });
    return this.producerReady;
  }

  private connectAdmin(): Promise<void> {
    this.adminReady ??= this.admin.connect().catch((error: unknown) => {
      this.adminReady = undefined;
      throw error;
    });
    return this.adminReady;
  }

  private async ensureTopics(messages: IntegrationMessage[]): Promise<void> {
    const missing = [...new Set(messages.map((m) => m.topic))].filter((t) => !this.knownTopics.has(t));
    if (missing.length === 0) return;
    // Resolves false when every topic already exists: that is success too.
    await this.admin.createTopics({
      waitForLeaders: true,
      topics: missing.map((topic) => ({
        topic,
        numPartitions: this.options.numPartitions,
        replicationFactor: this.options.replicationFactor,
      })),
    });
    for (const topic of missing) this.knownTopics.add(topic);
  }
}

const LOGGED_FIELDS = ['broker', 'clientId', 'topic', 'partition', 'groupId', 'error', 'retryCount', 'retryTime'];

/**
 * kafkajs's log entries carry arbitrary extras; only allow-listed scalars pass,
 * so nothing from a record can reach the logs.
 */
export function quietLogCreator(sink: KafkaLogSink): logCreator {
  return () =>
    ({ namespace, level, log }: LogEntry): void => {
      if (level > logLevel.WARN || level === logLevel.NOTHING) return;
      // Emitted once per producer because retries are bounded; see the constructor.
      if (log.message.startsWith('Limiting retries for the idempotent producer')) return;
      const context: Record<string, string | number | boolean> = {};
      for (const field of LOGGED_FIELDS) {
        const value: unknown = log[field];
        if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') context[field] = value;
      }
      sink(level === logLevel.ERROR ? 'error' : 'warn', namespace ? `kafkajs ${namespace}: ${log.message}` : `kafkajs: ${log.message}`, context);
    };
}

function stderrLog(level: KafkaLogLevel, message: string, context: Record<string, string | number | boolean>): void {
  process.stderr.write(`${JSON.stringify({ level, time: new Date().toISOString(), msg: message, ...context })}\n`);
}
