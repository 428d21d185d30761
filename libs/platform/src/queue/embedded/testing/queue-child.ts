/**
 * A child process for the embedded queue's crash tests (run through
 * `node --import libs/platform/src/testing/register-ts.mjs`). It opens the queue, starts a processor
 * whose handler never finishes, and reports on stdout:
 *   ready                        the queue is open and the processor started
 *   running <id> <attemptsMade>  a job reached the handler (it is now active in the store)
 * The test then kills it with SIGKILL, leaving the job active as a crash would.
 */
import { EmbeddedJobQueue } from '../embedded-job-queue.js';

const [dir, queueName] = process.argv.slice(2);

const queue = await EmbeddedJobQueue.open(dir);
queue.process(queueName, async (job) => {
  process.stdout.write(`running ${job.id} ${job.attemptsMade}\n`);
  await new Promise(() => {
    // never settles: the process is killed mid-job
  });
});
// Nothing else holds the event loop open, and the test decides when this process ends.
setInterval(() => undefined, 60_000);
process.stdout.write('ready\n');
