import { createServer, type Server } from 'node:http';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { capAlert } from '../__fixtures__/cap-fixtures.js';
import { CapReader } from '../cap/cap-reader.js';
import { CapError, MAX_CAP_BYTES } from '../cap/parse-cap.js';
import { CapSignatureError } from '../cap/verify-signature.js';
import { alertStore, type AlertStore } from '../testing/alert-store.js';
import { CapFeedPoller, FeedUrlRefusedError, MAX_FEED_BYTES } from './cap-feed-poller.js';

const at = new Date('2026-11-23T12:30:00Z');
const root = path.resolve(import.meta.dirname, '../../../..');
const SHARED = path.resolve(root, '../shared/data/cap');

const rss = (links: string[]) => `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0"><channel><title>GMet CAP alerts</title>
${links.map((link, index) => `<item><title>Alert ${index}</title><link>${link}</link><guid>${link}</guid></item>`).join('\n')}
</channel></rss>`;
const atom = (links: string[]) => `<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom"><title>Alert hub</title><id>urn:hub</id><updated>2026-11-23T12:00:00Z</updated>
${links.map((link, index) => `<entry><id>urn:e${index}</id><title>Alert ${index}</title><updated>2026-11-23T12:00:00Z</updated><link rel="alternate" type="text/html" href="/page/${index}"/><link rel="related" type="application/cap+xml" href="${link}"/></entry>`).join('\n')}
</feed>`;

/** A local alert hub: path → body (or status), every request counted. */
class Hub {
  readonly routes = new Map<string, { status?: number; body?: string; type?: string; headers?: Record<string, string> }>();
  readonly hits = new Map<string, number>();
  private server!: Server;
  base = '';

  async start(): Promise<void> {
    this.server = createServer((request, response) => {
      const url = request.url ?? '/';
      this.hits.set(url, (this.hits.get(url) ?? 0) + 1);
      const route = this.routes.get(url);
      if (!route) return void response.writeHead(404).end();
      response.writeHead(route.status ?? 200, { 'content-type': route.type ?? 'application/xml', ...route.headers });
      response.end(route.body ?? '');
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

function logger() {
  const entries: Array<Record<string, unknown>> = [];
  return { entries, info: (fields: Record<string, unknown>) => entries.push({ level: 'info', ...fields }), error: (fields: Record<string, unknown>) => entries.push({ level: 'error', ...fields }) };
}

describe('the CAP feed poller', () => {
  const hub = new Hub();
  beforeAll(() => hub.start());
  afterAll(() => hub.stop());
  beforeEach(() => {
    hub.routes.clear();
    hub.hits.clear();
  });

  // Each test's alert stream, on a real embedded event store (closed after the test).
  const stores: AlertStore[] = [];
  afterEach(async () => {
    for (const store of stores.splice(0)) await store.close();
  });
  const fresh = async () => {
    const store = await alertStore();
    stores.push(store);
    return store;
  };
  const lines = (log: AlertStore) => log.count();

  it('reads an RSS and an Atom list of CAP links; an update replaces its predecessor, a cancel removes it; nothing is read or recorded twice', async () => {
    hub.routes.set('/cap/a1.xml', { body: capAlert({ identifier: 'A1', event: 'Heavy Rain' }) });
    hub.routes.set('/cap/a2.xml', { body: capAlert({ identifier: 'A2', msgType: 'Update', references: 'gmet@meteo.gov.gh,A1,2026-11-23T12:00:00+00:00', event: 'Flood', sent: '2026-11-23T12:10:00+00:00' }) });
    hub.routes.set('/cap/b1.xml', { body: capAlert({ identifier: 'B1', event: 'Thunderstorm', polygon: '6.0,1.0 6.0,1.5 6.5,1.5 6.5,1.0 6.0,1.0' }) });
    hub.routes.set('/rss', { body: rss([`${hub.base}/cap/a1.xml`, '/cap/a2.xml']) });
    // The Atom feed lists A1 again, as hubs re-publish: recorded once.
    hub.routes.set('/atom', { body: atom(['/cap/b1.xml', `${hub.base}/cap/a1.xml`]), type: 'application/atom+xml' });
    const log = await fresh();
    const logs = logger();
    const poller = new CapFeedPoller([`${hub.base}/rss`, `${hub.base}/atom`], log.recorder, { allowPrivate: true }, logs);

    expect(await poller.pollAll()).toEqual({ accepted: 3, duplicates: 1, rejected: 0 });
    expect((await log.book()).active(at).map((alert) => [alert.identifier, alert.event])).toEqual([
      ['A2', 'Flood'],
      ['B1', 'Thunderstorm'],
    ]);
    expect(logs.entries.filter((entry) => entry.event === 'weather.feed_polled').map((entry) => [entry.links, entry.accepted])).toEqual([
      [2, 2],
      [2, 1],
    ]);

    // The same feeds again: no alert fetched again, nothing appended.
    const linesBefore = await lines(log);
    expect(await poller.pollAll()).toEqual({ accepted: 0, duplicates: 0, rejected: 0 });
    expect(hub.hits.get('/cap/a1.xml')).toBe(2);
    expect(hub.hits.get('/cap/a2.xml')).toBe(1);
    expect(await lines(log)).toBe(linesBefore);
    // A new poller (a restart) reads the links again, but the log records nothing twice.
    expect(await new CapFeedPoller([`${hub.base}/rss`], log.recorder, { allowPrivate: true }, logger()).pollAll()).toEqual({ accepted: 0, duplicates: 2, rejected: 0 });
    expect(await lines(log)).toBe(linesBefore);

    // A cancel appears in the feed: the update it references disappears.
    hub.routes.set('/cap/c1.xml', { body: capAlert({ identifier: 'C1', msgType: 'Cancel', references: 'gmet@meteo.gov.gh,A2,2026-11-23T12:10:00+00:00', sent: '2026-11-23T12:20:00+00:00' }) });
    hub.routes.set('/rss', { body: rss(['/cap/a1.xml', '/cap/a2.xml', '/cap/c1.xml']) });
    expect(await poller.pollAll()).toEqual({ accepted: 1, duplicates: 0, rejected: 0 });
    expect((await log.book()).active(at).map((alert) => alert.identifier)).toEqual(['B1']);
  });

  it('logs a feed that fails and still reads the next; refuses invalid and tampered alerts with their reason', async () => {
    hub.routes.set('/broken', { status: 500 });
    hub.routes.set('/not-xml', { body: 'this is not a feed <<<' });
    hub.routes.set('/cap/good.xml', { body: capAlert({ identifier: 'G1' }) });
    hub.routes.set('/cap/invalid.xml', { body: capAlert({ identifier: 'G2' }).replace('<status>Actual</status>', '<status>Real</status>') });
    hub.routes.set('/cap/missing.xml', { body: capAlert({ identifier: 'G3' }).replace(/<identifier>.*<\/identifier>/, '') });
    hub.routes.set('/rss', { body: rss(['/cap/invalid.xml', '/cap/missing.xml', '/cap/gone.xml', '/cap/good.xml']) });
    const log = await fresh();
    const logs = logger();
    const poller = new CapFeedPoller([`${hub.base}/broken`, `${hub.base}/not-xml`, `${hub.base}/rss`], log.recorder, { allowPrivate: true }, logs);

    expect(await poller.pollAll()).toEqual({ accepted: 1, duplicates: 0, rejected: 3 });
    expect((await log.book()).active(at).map((alert) => alert.identifier)).toEqual(['G1']);
    const errors = logs.entries.filter((entry) => entry.level === 'error');
    expect(errors.map((entry) => [entry.event, entry.feed ?? entry.url])).toEqual([
      ['weather.feed_failed', `${hub.base}/broken`],
      ['weather.feed_failed', `${hub.base}/not-xml`],
      ['weather.cap_rejected', `${hub.base}/cap/invalid.xml`],
      ['weather.cap_rejected', `${hub.base}/cap/missing.xml`],
      ['weather.cap_fetch_failed', `${hub.base}/cap/gone.xml`],
    ]);
    expect(errors[0].message).toBe('HTTP 500');
    expect(errors[2].reason).toMatch(/^CAP schema: line 6: Element 'cap:status'.*'Real'/);
    expect(errors[3].reason).toMatch(/^CAP schema: .*Expected is \( cap:identifier \)/);
    // A link that failed to fetch is tried again next time; a refused document is not.
    hub.routes.set('/cap/gone.xml', { body: capAlert({ identifier: 'G4' }) });
    expect(await poller.pollAll()).toEqual({ accepted: 1, duplicates: 0, rejected: 0 });
    expect(hub.hits.get('/cap/invalid.xml')).toBe(1);
  });

  (existsSync(path.join(SHARED, 'sc_valid.xml')) ? it : it.skip)('verifies a signed alert from a feed and refuses a tampered copy', async () => {
    const signed = readFileSync(path.join(SHARED, 'sc_valid.xml'), 'utf8');
    hub.routes.set('/cap/signed.xml', { body: signed });
    hub.routes.set('/cap/tampered.xml', { body: signed.replace('<severity>Moderate</severity>', '<severity>Extreme</severity>') });
    hub.routes.set('/atom', { body: atom(['/cap/tampered.xml', '/cap/signed.xml']) });
    const log = await fresh();
    const logs = logger();
    expect(await new CapFeedPoller([`${hub.base}/atom`], log.recorder, { allowPrivate: true }, logs).pollAll()).toEqual({ accepted: 1, duplicates: 0, rejected: 1 });
    expect((await log.book()).active(new Date('2024-05-19T14:00:00Z')).map((alert) => [alert.severity, alert.signature])).toEqual([['Moderate', 'valid']]);
    expect(logs.entries.find((entry) => entry.event === 'weather.cap_rejected')).toMatchObject({ url: `${hub.base}/cap/tampered.xml`, reason: expect.stringMatching(/XML signature does not verify/) });
  });

  it('refuses documents and feeds over their size limits, with or without a content-length, and does not follow redirects', async () => {
    const big = capAlert({ identifier: 'BIG' }).replace('<instruction>', `<instruction>${'x'.repeat(MAX_CAP_BYTES)}`);
    hub.routes.set('/cap/big.xml', { body: big });
    hub.routes.set('/cap/big-chunked.xml', { body: big, headers: { 'transfer-encoding': 'chunked' } });
    hub.routes.set('/cap/moved.xml', { status: 302, headers: { location: '/cap/ok.xml' } });
    hub.routes.set('/cap/ok.xml', { body: capAlert({ identifier: 'OK' }) });
    hub.routes.set('/rss', { body: rss(['/cap/big.xml', '/cap/big-chunked.xml', '/cap/moved.xml']) });
    hub.routes.set('/huge-feed', { body: rss([]).replace('<title>', `<title>${'y'.repeat(MAX_FEED_BYTES)}`) });
    const logs = logger();
    const log = await fresh();
    expect(await new CapFeedPoller([`${hub.base}/huge-feed`, `${hub.base}/rss`], log.recorder, { allowPrivate: true }, logs).pollAll()).toEqual({ accepted: 0, duplicates: 0, rejected: 3 });
    expect(logs.entries.filter((entry) => entry.level === 'error').map((entry) => entry.message)).toEqual([
      `larger than ${MAX_FEED_BYTES} bytes`,
      `larger than ${MAX_CAP_BYTES} bytes`,
      `larger than ${MAX_CAP_BYTES} bytes`,
      'HTTP 302 (redirects are not followed)',
    ]);
    expect(hub.hits.get('/cap/ok.xml')).toBeUndefined();
    expect((await log.book()).size).toBe(0);
  });

  it('applies the outbound address policy: loopback, private, link-local and metadata addresses, other schemes and credentials are refused unless private URLs are allowed', async () => {
    hub.routes.set('/rss', { body: rss(['/cap/a.xml']) });
    hub.routes.set('/cap/a.xml', { body: capAlert({ identifier: 'P1' }) });
    const logs = logger();
    const guarded = new CapFeedPoller([`${hub.base}/rss`, hub.base.replace('127.0.0.1', 'localhost') + '/rss'], (await fresh()).recorder, { allowPrivate: false }, logs);
    expect(await guarded.pollAll()).toEqual({ accepted: 0, duplicates: 0, rejected: 0 });
    expect(logs.entries.map((entry) => entry.message)).toEqual([expect.stringMatching(/127\.0\.0\.1 resolves to a refused address/), expect.stringMatching(/localhost resolves to a refused address/)]);
    expect(hub.hits.size).toBe(0);
    for (const url of ['http://169.254.169.254/latest/meta-data/', 'http://10.0.0.8/feed', 'http://[::1]/feed', 'http://192.168.1.1/cap.xml', 'file:///etc/passwd', 'ftp://example.org/feed', 'http://user:secret@example.org/feed']) {
      await expect(guarded.fetchText(url, 1024)).rejects.toThrow(FeedUrlRefusedError);
    }
    // With WEBHOOK_ALLOW_PRIVATE_URLS (as in these tests) loopback is read.
    expect(await new CapFeedPoller([`${hub.base}/rss`], (await fresh()).recorder, { allowPrivate: true }, logger()).pollAll()).toMatchObject({ accepted: 1 });
  });

  const worker = path.join(root, 'dist/libs/weather/src/cap/cap-reader.worker.js');
  (existsSync(worker) ? it : it.skip)('reads documents in a worker thread (the compiled reader), keeping the refusal kinds', async () => {
    const reader = new CapReader(pathToFileURL(worker));
    try {
      const [good, invalid] = await Promise.allSettled([reader.read(capAlert({ identifier: 'W1' })), reader.read(capAlert().replace('<status>Actual</status>', '<status>Real</status>'))]);
      expect(good).toMatchObject({ status: 'fulfilled', value: { identifier: 'W1', signature: 'unsigned' } });
      expect(invalid.status === 'rejected' && invalid.reason).toBeInstanceOf(CapError);
      if (existsSync(path.join(SHARED, 'sc_valid.xml'))) {
        const tampered = readFileSync(path.join(SHARED, 'sc_valid.xml'), 'utf8').replace('<severity>Moderate</severity>', '<severity>Extreme</severity>');
        await expect(reader.read(tampered)).rejects.toBeInstanceOf(CapSignatureError);
      }
    } finally {
      await reader.close();
    }
  });
  if (!existsSync(worker)) console.log(`skipped the worker-thread reader: ${worker} is not built (npm run build)`);
});
