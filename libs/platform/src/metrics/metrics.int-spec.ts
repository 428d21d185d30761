import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EmbeddedJobQueue } from '../queue/embedded/embedded-job-queue.js';
import { metricsRegistry, watchQueueDepth } from './metrics.js';

/** The `queue_depth{queue}` gauge (ADR 0028), read at scrape time from the embedded queue. */
describe('queue_depth', () => {
  const depthLines = async () => (await metricsRegistry.getSingleMetricAsString('queue_depth')).split('\n').filter((line) => line.startsWith('queue_depth{'));

  it('reports the waiting, delayed and running jobs of each declared queue, 0 for an idle one, nothing once the queue is closed', async () => {
    const queue = await EmbeddedJobQueue.open(mkdtempSync(path.join(tmpdir(), 'queue-depth-')));
    watchQueueDepth(queue, ['mail', 'webhooks', 'mail']);
    await queue.add('mail', 'send', { n: 1 });
    await queue.add('mail', 'send', { n: 2 }, { delayMs: 60_000 });
    expect(await depthLines()).toEqual(['queue_depth{queue="mail"} 2', 'queue_depth{queue="webhooks"} 0']);

    let release!: () => void;
    const running = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const begun = new Promise<void>((resolve) => (started = resolve));
    const worker = queue.process('mail', async () => {
      started();
      await running;
    });
    await begun;
    // One running, one delayed: still two not finished.
    expect(await depthLines()).toContain('queue_depth{queue="mail"} 2');
    release();
    await worker.close();
    expect(await depthLines()).toContain('queue_depth{queue="mail"} 1');

    await queue.close();
    expect(await depthLines()).toEqual([]);
  });
});
