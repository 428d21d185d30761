/**
 * A child process for the embedded rate limiter's crash test (run through
 * `node --import libs/platform/src/testing/register-ts.mjs`). It counts
 * `committed` requests against one key and commits them, then `extra` more
 * without waiting for the journal, and reports on stdout:
 *   committed   the first batch is in the journal
 *   counted     the extra ones are counted in memory (their commit is due within the flush interval)
 * Then it idles until the test kills it with SIGKILL.
 */
import { EmbeddedRateLimiter } from '../embedded-rate-limiter.js';

const [dir, key, committed, extra] = process.argv.slice(2);
const rule = { limit: 1_000_000, windowMs: 86_400_000 };

const limiter = await EmbeddedRateLimiter.open(dir);
for (let i = 0; i < Number(committed); i++) await limiter.consume(key, rule);
await limiter.flush();
process.stdout.write('committed\n');
for (let i = 0; i < Number(extra); i++) await limiter.consume(key, rule);
process.stdout.write('counted\n');
// Nothing else holds the event loop open (the flush timer is unref'd), and the test decides when this process ends.
setInterval(() => undefined, 60_000);
