import { Readiness } from './readiness.js';

describe('Readiness', () => {
  it('is ready once marked and no start-up work holds it back', () => {
    const readiness = new Readiness();
    const releaseImport = readiness.hold('starter_data');
    const releaseOther = readiness.hold('warm_up');
    readiness.markReady();
    expect(readiness.isReady).toBe(false);
    expect(readiness.pending).toEqual(['starter_data', 'warm_up']);
    releaseImport();
    releaseImport();
    expect(readiness.pending).toEqual(['warm_up']);
    expect(readiness.isReady).toBe(false);
    releaseOther();
    expect(readiness.isReady).toBe(true);
    readiness.markStopping();
    expect(readiness.isReady).toBe(false);
  });

  it('is not ready before it is marked, even with nothing held', () => {
    const readiness = new Readiness();
    readiness.hold('starter_data')();
    expect(readiness.isReady).toBe(false);
    expect(readiness.pending).toEqual([]);
  });

  it('asks ready-only checks for /health/ready, not for /health', async () => {
    // Without reuse: each answer below pings again.
    const readiness = new Readiness(0);
    let datasetsLive = false;
    readiness.add({ name: 'event_store', ping: async () => undefined });
    readiness.add({
      name: 'datasets',
      readyOnly: true,
      ping: async () => {
        if (!datasetsLive) throw new Error('none live');
      },
    });
    expect(await readiness.answer({ ready: true })).toEqual({ status: 503, body: { status: 'starting' } });
    readiness.markReady();
    expect(await readiness.answer({ ready: false })).toEqual({ status: 200, body: { status: 'ok' } });
    expect(await readiness.answer({ ready: true })).toEqual({ status: 503, body: { status: 'unavailable', failing: ['datasets'] } });
    datasetsLive = true;
    expect(await readiness.answer({ ready: true })).toEqual({ status: 200, body: { status: 'ok' } });
  });

  it('pings each backend once for the requests that ask while a round runs or just after it, then again', async () => {
    const readiness = new Readiness(50);
    const pings = { event_store: 0, kafka: 0 };
    let kafkaUp = true;
    let release!: () => void;
    let gate = new Promise<void>((resolve) => (release = resolve));
    readiness.add({
      name: 'event_store',
      ping: async () => {
        pings.event_store++;
      },
    });
    readiness.add({
      name: 'kafka',
      ping: async () => {
        pings.kafka++;
        await gate;
        if (!kafkaUp) throw new Error('down');
      },
    });
    readiness.markReady();

    // A flood while the round runs: one ping each.
    const flood = Array.from({ length: 20 }, () => readiness.answer({ ready: false }));
    await new Promise((resolve) => setImmediate(resolve));
    expect(pings).toEqual({ event_store: 1, kafka: 1 });
    release();
    for (const answer of await Promise.all(flood)) expect(answer).toEqual({ status: 200, body: { status: 'ok' } });
    // Within the window: the round's answer, no ping.
    kafkaUp = false;
    expect(await readiness.answer({ ready: false })).toEqual({ status: 200, body: { status: 'ok' } });
    expect(pings).toEqual({ event_store: 1, kafka: 1 });
    // After it: pinged again, and the backend that went down is reported.
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(await readiness.answer({ ready: false })).toEqual({ status: 503, body: { status: 'unavailable', failing: ['kafka'] } });
    expect(pings).toEqual({ event_store: 2, kafka: 2 });
    // /health/ready has its own round.
    gate = Promise.resolve();
    expect(await readiness.answer({ ready: true })).toEqual({ status: 503, body: { status: 'unavailable', failing: ['kafka'] } });
    expect(pings).toEqual({ event_store: 3, kafka: 3 });
  });
});
