// One readiness probe for services.sh: exits 0 once the broker answers a
// metadata request and names a controller, 1 otherwise. services.sh loops.
import kafkajs from 'kafkajs';

const { Kafka, logLevel } = kafkajs;
const brokers = (process.argv[2] ?? '127.0.0.1:9092').split(',');
const kafka = new Kafka({
  clientId: 'ci-ready-probe',
  brokers,
  connectionTimeout: 1000,
  requestTimeout: 2000,
  retry: { retries: 0 },
  logLevel: logLevel.NOTHING,
});
const admin = kafka.admin();
try {
  await admin.connect();
  const cluster = await admin.describeCluster();
  await admin.listTopics();
  if (cluster.controller == null || cluster.controller < 0) throw new Error('no controller yet');
  process.exitCode = 0;
} catch {
  process.exitCode = 1;
} finally {
  await admin.disconnect().catch(() => {});
}
