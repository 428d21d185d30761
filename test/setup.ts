import 'reflect-metadata';
// Services that tests spawn (npm start, api, worker) inherit this: no starter import unless a test asks for it.
process.env.STARTER_DATA ??= 'false';
// Spawned services sign up from 127.0.0.1 too, and with REDIS_URL set (CI) their per-IP signup counts live in
// one shared Redis across suites and runs: the default 20 an hour would refuse the later ones. bootService does
// the same for in-process services; the throttle's own tests (throttles.e2e-spec.ts) set their limits.
process.env.SIGNUP_LIMIT_PER_IP_PER_HOUR ??= '100000';
// Spawned services inherit REDIS_URL and KAFKA_BROKERS in CI, which puts them in production mode, where
// DATA_ENCRYPTION_KEY is required (docs/adr/0033); bootService passes the same key to in-process services.
process.env.DATA_ENCRYPTION_KEY ??= 'dGVzdC1kYXRhLWVuY3J5cHRpb24ta2V5LTMyLWJ5dGU=';
