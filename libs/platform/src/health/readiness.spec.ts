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
    const readiness = new Readiness();
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
});
