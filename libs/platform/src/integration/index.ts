import { KafkaPublisher, type KafkaLogSink } from './kafka/kafka-publisher.js';
import type { IntegrationPublisher } from './integration-bus.port.js';

export * from './integration-bus.port.js';
export { KafkaPublisher, type KafkaPublisherOptions, type KafkaLogSink, type KafkaLogLevel } from './kafka/kafka-publisher.js';

/**
 * The integration bus chosen by configuration: Kafka when brokers are
 * configured, otherwise none at all (no relay runs; decisions.md, KAFKA_BROKERS).
 * Connecting is lazy: the first publish or ping opens the connections.
 */
export function openIntegrationPublisher(opts: {
  kafkaBrokers?: string[];
  clientId: string;
  log?: KafkaLogSink;
}): IntegrationPublisher | undefined {
  if (!opts.kafkaBrokers?.length) return undefined;
  return new KafkaPublisher({ brokers: opts.kafkaBrokers, clientId: opts.clientId, log: opts.log });
}
