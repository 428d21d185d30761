import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { jest } from '@jest/globals';
import { EmbeddedEventStore, EventRegistry, type EventStore } from '../../../platform/src/index.js';
import { verifyChain, type ApiAccessRecorded } from '../domain/access-events.js';
import { auditEventTypes } from '../event-types.js';
import { StoreAccessRecorder } from '../public/access-recorder.js';
import { accessEntry as entry } from './testing/access-entry.js';


describe('AccessRecorder on the embedded event store', () => {
  let events: EventStore;
  const registry = new EventRegistry().register(...auditEventTypes);

  beforeEach(async () => {
    events = await EmbeddedEventStore.open(mkdtempSync(path.join(tmpdir(), 'recorder-')));
  });
  afterEach(() => events.close());

  const chainOf = async (stream: string) => (await events.readStream(stream)).map((event) => event.data as unknown as ApiAccessRecorded['data']);

  it.each([1, 4])('records concurrent requests on several chains in arrival order, in fewer appends than entries (%i in flight)', async (maxInFlight) => {
    const recorder = new StoreAccessRecorder(events, registry, { maxInFlight });
    const appends = jest.spyOn(events, 'append');
    const ids = Array.from({ length: 300 }, (_, index) => `r${index}`);
    await Promise.all(ids.map((id, index) => recorder.record(entry(index % 3 === 0 ? null : 'acct_1', id))));

    const platform = await chainOf('access_log-platform');
    const account = await chainOf('access_log-acct_1');
    expect(verifyChain(platform)).toMatchObject({ ok: true, entries: 100 });
    expect(verifyChain(account)).toMatchObject({ ok: true, entries: 200 });
    expect(account.map((item) => item.request_id)).toEqual(ids.filter((_, index) => index % 3 !== 0));
    // Group commit: 300 entries went to the store in a handful of appends.
    expect(appends.mock.calls.length).toBeLessThan(30);
  });

  it('two recorders on one chain (two api instances) keep it intact by relinking after conflicts', async () => {
    const first = new StoreAccessRecorder(events, registry, { maxInFlight: 1 });
    const second = new StoreAccessRecorder(events, registry, { maxInFlight: 1 });
    await Promise.all(
      Array.from({ length: 200 }, (_, index) => (index % 2 === 0 ? first : second).record(entry('acct_2', `x${index}`))),
    );
    const chain = await chainOf('access_log-acct_2');
    expect(verifyChain(chain)).toMatchObject({ ok: true, entries: 200 });
    expect(new Set(chain.map((item) => item.request_id)).size).toBe(200);
  });

  it('continues a chain written by an earlier process', async () => {
    await new StoreAccessRecorder(events, registry).record(entry(null, 'before'));
    const later = new StoreAccessRecorder(events, registry, { maxInFlight: 4 });
    await Promise.all([later.record(entry(null, 'after-1')), later.record(entry(null, 'after-2'))]);
    const chain = await chainOf('access_log-platform');
    expect(chain.map((item) => item.request_id)).toEqual(['before', 'after-1', 'after-2']);
    expect(verifyChain(chain).ok).toBe(true);
  });

  it('fails the waiting requests when the store refuses the write, and recovers afterwards', async () => {
    const recorder = new StoreAccessRecorder(events, registry, { maxInFlight: 4 });
    await recorder.record(entry(null, 'ok-1'));
    const append = events.append.bind(events);
    let failNext = true;
    events.append = async (...args) => {
      if (failNext) {
        failNext = false;
        throw new Error('disk full');
      }
      return append(...args);
    };
    await expect(recorder.record(entry(null, 'lost'))).rejects.toThrow('disk full');
    await recorder.record(entry(null, 'ok-2'));
    const chain = await chainOf('access_log-platform');
    expect(chain.map((item) => item.request_id)).toEqual(['ok-1', 'ok-2']);
    expect(verifyChain(chain).ok).toBe(true);
  });
});
