/**
 * Integration events leave the service through this port (Kafka when
 * KAFKA_BROKERS is set). Messages are published by the relay from a
 * checkpointed subscription, never in-process after an append.
 */
export interface IntegrationMessage {
  topic: string;
  /** Partitioning key: the stream name, so per-stream order holds. */
  key: string;
  value: string;
  headers: Record<string, string>;
}

export interface IntegrationPublisher {
  /** Resolves once every message is acknowledged by the broker, in the given order per key. */
  publish(messages: IntegrationMessage[]): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export const INTEGRATION_PUBLISHER = Symbol('IntegrationPublisher');
