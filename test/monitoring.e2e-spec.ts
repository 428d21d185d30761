import { getResolution, latLngToCell } from 'h3-js';
import { createHmac } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { cellFromHexCode, hexCodeForPoint, hexCodeFromCell } from '../libs/addressing/src/index.js';
import { locationStream } from '../libs/monitoring/src/index.js';
import { LocationSealing } from '../libs/monitoring/src/testing/location-streams.js';
import { collectionName, EmbeddedReadStore, rebuildProjection, StreamNotFoundError, type RecordedEvent } from '../libs/platform/src/index.js';
import { driftStateProjection } from '../projections/index.js';
import { needlesFor, scanReadStore, scanTree, undocumented } from './support/erasure-scan.js';
import { ADMIN_KEY, bootService, eventually, type Service } from './support/boot.js';
import { accountOf, data, json, signUp } from './support/http.js';

/** Consent-gated pings, zones and drift, and erasure (issue 4; decisions.md, "Endpoints the specification implies"). */
describe('location monitoring over HTTP', () => {
  let service: Service;

  beforeAll(async () => {
    service = await bootService();
  });
  afterAll(async () => {
    await service?.close();
  });

  async function signUpWithAccount(): Promise<{ key: string; account: string }> {
    const key = await signUp(service, 'Kofi');
    return { key, account: await accountOf(service, key) };
  }

  const grant = (key: string, customer_id: string, scope?: string[]) => service.request('POST', '/v2/consent/grant', { key, body: { customer_id, ...(scope ? { scope } : {}) } });
  const pings = (key: string, body: unknown) => service.request('POST', '/v2/monitoring/pings', { key, body });
  const drift = async (key: string, customer: string) => data<Record<string, unknown>>(await service.request('GET', `/v2/monitoring/drift?customer_id=${customer}`, { key }));

  async function stored(account: string, customer: string): Promise<RecordedEvent[]> {
    try {
      return await service.runtime.backends.events.readStream(locationStream(account, customer));
    } catch (error) {
      if (error instanceof StreamNotFoundError) return [];
      throw error;
    }
  }

  /** Minutes before now, as an ISO time: recorded_at must not be in the future. */
  const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
  // Accra: Makola market and a point about 3 km north-west of it.
  const home = { lat: 5.5497, lng: -0.2107 };
  const away = { lat: 5.5755, lng: -0.2301 };

  it('refuses pings without granted consent and stores nothing of them', async () => {
    const { key, account } = await signUpWithAccount();
    const single = await pings(key, { customer_id: 'c-none', ...home });
    expect(single.status).toBe(403);
    expect(await json(single)).toMatchObject({ success: false, error: { code: 'CONSENT_REQUIRED' } });

    await grant(key, 'c-device', ['device']);
    const batch = await pings(key, { pings: [{ customer_id: 'c-none', ...home }, { customer_id: 'c-device', ...home }] });
    expect(batch.status).toBe(200);
    const outcome = await data<{ items: Array<{ status: string; error?: { code: string } }>; refused: number }>(batch);
    expect(outcome.refused).toBe(2);
    expect(outcome.items.map((item) => item.error?.code)).toEqual(['CONSENT_REQUIRED', 'CONSENT_REQUIRED']);
    expect(await stored(account, 'c-none')).toEqual([]);
    expect(await stored(account, 'c-device')).toEqual([]);
  });

  it('stores a replayed batch once, reporting duplicates, and checks each ping on its own', async () => {
    const { key, account } = await signUpWithAccount();
    await grant(key, 'c-replay');
    const batch = [
      { customer_id: 'c-replay', ...home, recorded_at: ago(30), accuracy_m: 8 },
      { customer_id: 'c-replay', ...home, recorded_at: ago(20), device_id: 'phone-1' },
      { customer_id: 'c-replay', lat: 95, lng: 0, recorded_at: ago(10) },
      { customer_id: 'c-replay', ...home, recorded_at: ago(10), colour: 'blue' },
    ];
    const first = await data<{ items: Array<{ status: string; ping_id?: string; error?: { field: string } }>; accepted: number }>(await pings(key, { pings: batch }));
    expect(first.items.map((item) => item.status)).toEqual(['accepted', 'accepted', 'refused', 'refused']);
    expect(first.items.map((item) => item.error?.field)).toEqual([undefined, undefined, 'lat', 'colour']);
    const again = await data<{ items: Array<{ status: string; ping_id?: string }>; duplicates: number }>(await pings(key, { pings: batch.slice(0, 2).reverse() }));
    expect(again.items.map((item) => item.status)).toEqual(['duplicate', 'duplicate']);
    expect(again.items.map((item) => item.ping_id)).toEqual([first.items[1].ping_id, first.items[0].ping_id]);
    // Duplicates inside one batch count once too (one timestamp: two calls of ago(5) can fall a millisecond apart).
    const fiveAgo = ago(5);
    const doubled = await data<{ items: Array<{ status: string }> }>(
      await pings(key, { pings: [{ customer_id: 'c-replay', ...away, recorded_at: fiveAgo }, { customer_id: 'c-replay', ...away, recorded_at: fiveAgo }] }),
    );
    expect(doubled.items.map((item) => item.status)).toEqual(['accepted', 'duplicate']);
    expect((await stored(account, 'c-replay')).filter((event) => event.type === 'PingRecorded')).toHaveLength(3);
  });

  it('refuses malformed requests with 400 naming the field, never 500', async () => {
    const { key } = await signUpWithAccount();
    await grant(key, 'c-bad');
    const cases: Array<[unknown, string]> = [
      [{ pings: Array.from({ length: 1001 }, () => ({ customer_id: 'c-bad', ...home })) }, 'pings'],
      [{ pings: [] }, 'pings'],
      [{ pings: ['x'] }, 'pings'],
      [{ pings: [{ customer_id: 'c-bad', ...home }], lat: 1 }, 'pings'],
      [{ customer_id: 'c-bad', lat: 'north', lng: 0 }, 'lat'],
      [{ customer_id: 'c-bad', ...home, recorded_at: 'yesterday' }, 'recorded_at'],
      [{ customer_id: 'c-bad', ...home, recorded_at: new Date(Date.now() + 3_600_000).toISOString() }, 'recorded_at'],
      [{ customer_id: 'bad id', ...home }, 'customer_id'],
    ];
    for (const [body, field] of cases) {
      const response = await pings(key, body);
      expect({ field, status: response.status }).toEqual({ field, status: 400 });
      expect(await json(response)).toMatchObject({ success: false, error: { code: 'INVALID_PARAM', field } });
    }
  });

  it('emits one drift per excursion, resets on return, and orders late pings by recorded_at', async () => {
    const { key, account } = await signUpWithAccount();
    const customer = 'c-drift';
    const refused = await service.request('PUT', `/v2/monitoring/zones/${customer}`, { key, body: { ...home, tolerance_hops: 2 } });
    expect(refused.status).toBe(403);
    await grant(key, customer);
    const zone = await service.request('PUT', `/v2/monitoring/zones/${customer}`, { key, body: { ...home, tolerance_hops: 2 } });
    expect(zone.status).toBe(200);
    const homeCell = latLngToCell(home.lat, home.lng, 9);
    expect(await data(zone)).toMatchObject({ status: 'in_zone', home_hex: hexCodeFromCell(homeCell), tolerance_hops: 2, current_hex: null });

    // Sent newest first: the service orders them, so the customer left and is still out (one drift).
    const out = await data<{ accepted: number }>(
      await pings(key, { pings: [{ customer_id: customer, ...away, recorded_at: ago(10) }, { customer_id: customer, ...away, lat: away.lat + 0.001, recorded_at: ago(20) }, { customer_id: customer, ...home, recorded_at: ago(30) }] }),
    );
    expect(out.accepted).toBe(3);
    const awayCell = latLngToCell(away.lat, away.lng, 9);
    expect(await drift(key, customer)).toMatchObject({ status: 'drifting', current_hex: hexCodeFromCell(awayCell), home_hex: hexCodeFromCell(homeCell), last_ping_at: expect.any(String) });
    const types = () => stored(account, customer).then((events) => events.map((event) => event.type).filter((type) => type !== 'PingRecorded'));
    expect(await types()).toEqual(['ZoneRegistered', 'DriftStarted']);

    // A late ping from home, older than the newest, changes nothing about the present.
    const late = await data<{ items: Array<{ late: boolean }> }>(await pings(key, { pings: [{ customer_id: customer, ...home, recorded_at: ago(15) }] }));
    expect(late.items[0].late).toBe(true);
    expect(await drift(key, customer)).toMatchObject({ status: 'drifting' });

    const back = await pings(key, { customer_id: customer, ...home, recorded_at: ago(1) });
    expect(await data(back)).toMatchObject({ status: 'accepted', late: false });
    expect(await drift(key, customer)).toMatchObject({ status: 'in_zone', distance_hops: 0, current_hex: hexCodeFromCell(homeCell) });
    expect(await types()).toEqual(['ZoneRegistered', 'DriftStarted', 'DriftEnded']);

    const [driftEvent] = (await stored(account, customer)).filter((event) => event.type === 'DriftStarted');
    const sealing = new LocationSealing(service.runtime.backends.dataKeys);
    const opened = await sealing.open(driftEvent);
    expect(opened?.data).toMatchObject({ home_cell: homeCell, current_cell: awayCell, occurred_at: expect.any(String) });
  });

  it('accepts a zone as a hex code and refuses bad zones', async () => {
    const { key } = await signUpWithAccount();
    await grant(key, 'c-zone');
    const code = hexCodeForPoint(home.lat, home.lng, 10);
    const zone = await data<{ home_hex: string }>(await service.request('PUT', '/v2/monitoring/zones/c-zone', { key, body: { home_hex: code.toLowerCase(), tolerance_hops: 0 } }));
    expect(getResolution(cellFromHexCode(zone.home_hex))).toBe(10);
    for (const [body, field] of [
      [{ home_hex: 'NOT-A-CODE' }, 'home_hex'],
      [{ lat: 5.5 }, 'lng'],
      [{ ...home, home_hex: code }, 'home_hex'],
      [{ ...home, tolerance_hops: -1 }, 'tolerance_hops'],
      [{ ...home, resolution: 3 }, 'resolution'],
      [{ home_hex: hexCodeForPoint(home.lat, home.lng, 2) }, 'home_hex'],
    ] as const) {
      const response = await service.request('PUT', '/v2/monitoring/zones/c-zone', { key, body });
      expect({ field, status: response.status }).toEqual({ field, status: 400 });
      expect(await json(response)).toMatchObject({ error: { field } });
    }
  });

  it('stores no ping after a revoke is acknowledged, under concurrent batches', async () => {
    const { key, account } = await signUpWithAccount();
    // About 1,000 pings in 25 batches: a batch counts its pings against the quota (ADR 0042), over the free tier's 100 a day.
    expect((await service.request('PUT', `/v2/admin/accounts/${account}/tier`, { key: ADMIN_KEY, body: { tier: 'basic' } })).status).toBe(200);
    const customer = 'c-race';
    await grant(key, customer);
    let n = 0;
    const batch = () => ({ pings: Array.from({ length: 40 }, () => ({ customer_id: customer, lat: home.lat + (n += 1) * 1e-6, lng: home.lng, recorded_at: ago(1) })) });
    let revokedAt = 0;
    const sent: Promise<{ accepted: number; started: number }>[] = [];
    for (let i = 0; i < 24; i += 1) {
      sent.push(
        (async () => {
          await new Promise((resolve) => setTimeout(resolve, i * 4));
          const started = Date.now();
          const outcome = await data<{ accepted: number }>(await pings(key, batch()));
          return { accepted: outcome.accepted, started };
        })(),
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 40));
    const revoke = await service.request('POST', '/v2/consent/revoke', { key, body: { customer_id: customer } });
    expect(revoke.status).toBe(200);
    revokedAt = Date.now();
    const results = await Promise.all(sent);

    const events = await stored(account, customer);
    const marker = events.findIndex((event) => event.type === 'CollectionStopped');
    expect(marker).toBeGreaterThan(-1);
    const pingsAfterMarker = events.slice(marker).filter((event) => event.type === 'PingRecorded');
    expect(pingsAfterMarker).toEqual([]);
    const accepted = results.reduce((sum, result) => sum + result.accepted, 0);
    expect(events.filter((event) => event.type === 'PingRecorded')).toHaveLength(accepted);
    // Requests sent after the acknowledgement are refused whole.
    for (const result of results.filter((result) => result.started > revokedAt)) expect(result.accepted).toBe(0);
    const after = await data<{ refused: number }>(await pings(key, batch()));
    expect(after.refused).toBe(40);
  });

  it('rebuilding drift_state from the log gives the same read model', async () => {
    const live = await service.runtime.backends.readStore.collection(collectionName(driftStateProjection));
    const fresh = await EmbeddedReadStore.open(mkdtempSync(path.join(tmpdir(), 'drift-rebuild-')));
    try {
      await rebuildProjection(driftStateProjection as never, service.runtime.backends.events, fresh, service.runtime.registry);
      const rebuilt = await fresh.collection(collectionName(driftStateProjection));
      const all = (collection: typeof live) => collection.find({ index: 'by_customer', limit: 1000 }).then((page) => page.items);
      const liveDocs = await all(live);
      expect(liveDocs.length).toBeGreaterThan(2);
      expect(await all(rebuilt)).toEqual(liveDocs);
    } finally {
      await fresh.close();
    }
  });
});

/** ADR 12: after delete-data nothing readable of the customer's locations remains anywhere under DATA_DIR. */
describe('erasure by crypto-shredding', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'location-api-erasure-'));
  let service: Service;

  beforeAll(async () => {
    service = await bootService({ dataDir });
  });
  afterAll(async () => {
    await service?.close();
  });

  /** Every file under the folder, as bytes. */
  function files(dir: string): Array<{ file: string; bytes: Buffer }> {
    return readdirSync(dir, { recursive: true, encoding: 'utf8' })
      .map((name) => path.join(dir, name))
      .filter((file) => statSync(file).isFile())
      .map((file) => ({ file, bytes: readFileSync(file) }));
  }
  const containing = (needle: string | Buffer) => files(dataDir).filter(({ bytes }) => bytes.includes(needle)).map(({ file }) => path.relative(dataDir, file));

  it('greps the data folder: a known coordinate, its cells and the key never in the clear, and after erasure neither the customer id (but for the log and the audit)', async () => {
    const signup = await data<{ key: string }>(await service.request('POST', '/v2/self/signup', { body: { name: 'Ama', email: 'ama-erasure@example.com' } }));
    const key = signup.key;
    const { account_id: account } = await data<{ account_id: string }>(await service.request('GET', '/v2/me', { key }));
    const customer = 'cust-erase-1';
    // A coordinate with digits that occur nowhere else, its H3 cells and hex codes.
    const secret = { lat: 5.6148213, lng: -0.2058741 };
    const needles = [String(secret.lat), String(secret.lng), latLngToCell(secret.lat, secret.lng, 9), latLngToCell(secret.lat, secret.lng, 15), hexCodeForPoint(secret.lat, secret.lng, 9)];

    await service.request('POST', '/v2/consent/grant', { key, body: { customer_id: customer } });
    await service.request('PUT', `/v2/monitoring/zones/${customer}`, { key, body: { lat: 5.5497, lng: -0.2107, tolerance_hops: 1 } });
    const recorded = await data<{ accepted: number }>(
      await service.request('POST', '/v2/monitoring/pings', { key, body: { pings: [0, 1, 2].map((i) => ({ customer_id: customer, ...secret, recorded_at: new Date(Date.now() - (3 - i) * 60_000).toISOString() })) } }),
    );
    expect(recorded.accepted).toBe(3);
    const before = await data<{ status: string; current_hex: string }>(await service.request('GET', `/v2/monitoring/drift?customer_id=${customer}`, { key }));
    expect(before).toMatchObject({ status: 'drifting', current_hex: needles[4] });

    const subject = LocationSealing.subject(account, customer);
    const vault = service.runtime.backends.dataKeys;
    const events = await service.runtime.backends.events.readStream(locationStream(account, customer));
    const keyId = String(events.find((event) => event.type === 'PingRecorded')!.data.key_id);
    const dataKey = (await vault.find(subject, keyId))!;
    expect(dataKey).toBeDefined();
    // The stored pings open with the key: the data is there, only sealed.
    const opened = await new LocationSealing(vault).open(events.find((event) => event.type === 'PingRecorded')!);
    expect(opened?.data).toMatchObject(secret);
    for (const needle of needles) expect({ needle, files: containing(needle) }).toEqual({ needle, files: [] });

    expect((await service.request('POST', '/v2/consent/revoke', { key, body: { customer_id: customer } })).status).toBe(200);
    const erasure = await service.request('POST', '/v2/consent/delete-data', { key, body: { customer_id: customer } });
    expect(erasure.status).toBe(200);
    expect(await data(erasure)).toMatchObject({ erased: true, events_erased: events.length + 1 });

    expect(await vault.find(subject, keyId)).toBeUndefined();
    await expect(service.runtime.backends.events.readStream(locationStream(account, customer))).rejects.toBeInstanceOf(StreamNotFoundError);
    expect(await data(await service.request('GET', `/v2/monitoring/drift?customer_id=${customer}`, { key }))).toMatchObject({ status: 'unmonitored', home_hex: null, current_hex: null });
    for (const needle of needles) expect({ needle, files: containing(needle) }).toEqual({ needle, files: [] });
    for (const form of [dataKey.key, Buffer.from(dataKey.key.toString('hex')), Buffer.from(dataKey.key.toString('base64')), Buffer.from(dataKey.key.toString('base64url'))]) {
      expect(containing(form)).toEqual([]);
    }
    // Nor is the customer named anywhere outside the event log (issue 10, item 6: read-model keys held the
    // customer id and the ten-minute buckets of the erased pings), but where docs/guides/monitoring.md ("What
    // survives erasure") says it stays: the consent history and the erasure record in the log (ADR 12), and the
    // access audit, which records who called what about whom (its journal, its read model and that model's index).
    const named = [
      ...(await scanReadStore(path.join(dataDir, 'read-models'), needlesFor({ customerId: customer, coordinates: [] }))),
      ...scanTree(dataDir, needlesFor({ customerId: customer, coordinates: [] })).filter((hit) => !/^file read-models\//.test(hit.where)),
    ];
    expect(named.length).toBeGreaterThan(0);
    expect(undocumented(named)).toEqual([]);
    // The consent record stays listed (GET /v2/consents), erased and without the customer's id, which the
    // consents read model held only sealed under a key the erasure destroyed (docs/adr/0032, "Listing"):
    // the grep above covers its documents, its index entries and the old page copies LMDB keeps.
    const listed = await data<{ items: Array<{ customer_id: string | null; status: string; erased_at: string | null }> }>(await service.request('GET', '/v2/consents', { key }));
    expect(listed.items).toEqual([expect.objectContaining({ customer_id: null, status: 'erased', erased_at: expect.any(String) })]);
    // The erasure itself is on record, without any location.
    const consentEvents = await service.runtime.backends.events.readStream(`consent-${account}:${customer}`);
    const record = consentEvents.find((event) => event.type === 'CustomerDataErased')!;
    expect(record.data).toMatchObject({ account_id: account, customer_id: customer, erased_by: expect.any(String), events_erased: events.length + 1 });
    // Only these fields, none of them a place. (A grep of the text for "5.61" failed when erased_at's seconds
    // read 05.617, and "lat" could come up in the random pseudonym.)
    expect(Object.keys(record.data).sort()).toEqual(['account_id', 'customer_id', 'erased_at', 'erased_by', 'events_erased', 'pseudonym']);
    expect(String(record.data.erased_at)).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
    expect(String(record.data.erased_by)).not.toBe(key);
    // The customer may be monitored again later, under a new key.
    await service.request('POST', '/v2/consent/grant', { key, body: { customer_id: customer } });
    const again = await data<{ status: string }>(await service.request('POST', '/v2/monitoring/pings', { key, body: { customer_id: customer, lat: 5.55, lng: -0.21 } }));
    expect(again.status).toBe('accepted');
    const relisted = await data<{ items: Array<{ customer_id: string | null; status: string }> }>(await service.request('GET', '/v2/consents', { key }));
    expect(relisted.items).toEqual([expect.objectContaining({ customer_id: customer, status: 'active' })]);
  });
});

/** interface.md, "Drift event payload" and "Headers on every delivery": drift reaches a webhook from the log. */
describe('drift webhooks', () => {
  let service: Service;
  beforeAll(async () => {
    service = await bootService({ env: { WEBHOOK_RETRY_DELAYS_MS: '0,200' } });
  });
  afterAll(async () => {
    await service?.close();
  });

  it('delivers one signed drift per excursion with the spec payload, timestamped by the ping', async () => {
    const received: Array<{ headers: http.IncomingHttpHeaders; raw: Buffer }> = [];
    const server = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        received.push({ headers: request.headers, raw: Buffer.concat(chunks) });
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { key } = await data<{ key: string }>(await service.request('POST', '/v2/self/signup', { body: { name: 'Yaa', email: 'yaa-drift@example.com' } }));
      const secret = 'whsec-drift-0123456789abcdef';
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/drift`;
      expect((await service.request('POST', '/v2/webhooks/configure', { key, body: { url, secret } })).status).toBeLessThan(300);
      const customer = 'c-hook';
      await service.request('POST', '/v2/consent/grant', { key, body: { customer_id: customer } });
      await service.request('PUT', `/v2/monitoring/zones/${customer}`, { key, body: { lat: 5.5497, lng: -0.2107, tolerance_hops: 1 } });
      const leftAt = new Date(Date.now() - 120_000).toISOString();
      const batch = [
        { customer_id: customer, lat: 5.5755, lng: -0.2301, recorded_at: leftAt },
        { customer_id: customer, lat: 5.5756, lng: -0.2302, recorded_at: new Date(Date.now() - 60_000).toISOString() },
      ];
      expect((await data<{ accepted: number }>(await service.request('POST', '/v2/monitoring/pings', { key, body: { pings: batch } }))).accepted).toBe(2);
      await eventually(async () => (received.length >= 1 ? true : undefined), 10_000);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(received).toHaveLength(1);
      const [delivery] = received;
      expect(delivery.headers['x-webhook-event']).toBe('drift');
      const timestamp = String(delivery.headers['x-webhook-timestamp']);
      expect(delivery.headers['x-webhook-signature']).toBe(createHmac('sha256', secret).update(delivery.raw).digest('hex'));
      expect(delivery.headers['x-webhook-signature-v2']).toBe(createHmac('sha256', secret).update(`${timestamp}.`).update(delivery.raw).digest('hex'));
      const payload = JSON.parse(delivery.raw.toString('utf8')) as Record<string, unknown>;
      expect(payload).toEqual({
        event: 'drift',
        customer_id: customer,
        home_hex: hexCodeFromCell(latLngToCell(5.5497, -0.2107, 9)),
        current_hex: hexCodeFromCell(latLngToCell(5.5755, -0.2301, 9)),
        distance_hops: expect.any(Number),
        timestamp: leftAt,
      });
      expect(payload.distance_hops as number).toBeGreaterThan(1);

      // A fence at the customer's current spot: the next ping inside it is one geofence_breach.
      expect((await service.request('POST', '/v2/webhooks/configure', { key, body: { url, secret, event_types: ['drift', 'geofence_breach'] } })).status).toBeLessThan(300);
      const fence = await data<{ id: string }>(
        await service.request('POST', '/v2/geofence/create', { key, body: { fence_type: 'circle', center: { lat: 5.5755, lng: -0.2301 }, radius_m: 300, customer_id: customer, loan_id: 'loan-7' } }),
      );
      const inside = [0, 1].map((i) => ({ customer_id: customer, lat: 5.5757, lng: -0.2300, recorded_at: new Date(Date.now() - 30_000 + i * 10_000).toISOString() }));
      expect((await data<{ accepted: number }>(await service.request('POST', '/v2/monitoring/pings', { key, body: { pings: inside } }))).accepted).toBe(2);
      const breach = await eventually(async () => received.find((entry) => entry.headers['x-webhook-event'] === 'geofence_breach'), 10_000);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(received.filter((entry) => entry.headers['x-webhook-event'] === 'geofence_breach')).toHaveLength(1);
      expect(JSON.parse(breach.raw.toString('utf8'))).toEqual({
        event: 'geofence_breach',
        customer_id: customer,
        fence_id: fence.id,
        fence_type: 'circle',
        loan_id: 'loan-7',
        current_hex: hexCodeForPoint(5.5757, -0.23),
        lat: 5.5757,
        lng: -0.23,
        timestamp: inside[0].recorded_at,
      });
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

/** Issue 4: every read model rebuilt from the log equals the one the running service built. */
describe('projection rebuilds', () => {
  it('give the same documents for every projection after monitoring, geofence and webhook traffic', async () => {
    const service = await bootService({ env: { WEBHOOK_RETRY_DELAYS_MS: '0' } });
    const server = http.createServer((request, response) => {
      request.resume();
      request.on('end', () => response.writeHead(200).end());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const fresh = await EmbeddedReadStore.open(mkdtempSync(path.join(tmpdir(), 'rebuild-all-')));
    try {
      const { key } = await data<{ key: string }>(await service.request('POST', '/v2/self/signup', { body: { name: 'Efua', email: 'efua-rebuild@example.com' } }));
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
      await service.request('POST', '/v2/webhooks/configure', { key, body: { url, secret: 'whsec-rebuild-0123456789', event_types: ['drift', 'geofence_breach', 'consent_revoked'] } });
      for (const customer of ['r1', 'r2', 'r3']) {
        await service.request('POST', '/v2/consent/grant', { key, body: { customer_id: customer } });
        await service.request('PUT', `/v2/monitoring/zones/${customer}`, { key, body: { lat: 5.5497, lng: -0.2107, tolerance_hops: 1 } });
        await service.request('POST', '/v2/geofence/create', { key, body: { fence_type: 'circle', center: { lat: 5.5755, lng: -0.2301 }, radius_m: 400, customer_id: customer } });
        await service.request('POST', '/v2/monitoring/pings', { key, body: { pings: [{ customer_id: customer, lat: 5.5755, lng: -0.2301, recorded_at: new Date(Date.now() - 60_000).toISOString() }] } });
      }
      await service.request('POST', '/v2/consent/revoke', { key, body: { customer_id: 'r3' } });
      await service.request('POST', '/v2/consent/delete-data', { key, body: { customer_id: 'r3' } });
      // Quiet: every delivery attempted, and the runner caught up with the head of the log. Five: r3's drift and
      // geofence_breach deliveries went with its erasure (issue #10, item 6), its consent_revoked stays.
      await eventually(async () => {
        const list = await data<{ items: Array<{ status: string }> }>(await service.request('GET', '/v2/webhooks/deliveries?days=1', { key }));
        return list.items.length >= 5 && list.items.every((item) => item.status !== 'pending') ? true : undefined;
      }, 15_000);
      await new Promise((resolve) => setTimeout(resolve, 500));
      const head = await service.runtime.backends.events.headPosition();
      const { projections } = await import('../projections/index.js');
      for (const projection of projections) {
        await rebuildProjection(projection, service.runtime.backends.events, fresh, service.runtime.registry);
        const live = await service.runtime.backends.readStore.collection(collectionName(projection));
        const rebuilt = await fresh.collection(collectionName(projection));
        const index = projection.indexes[0].name;
        const all = async (collection: typeof live) => {
          const docs: unknown[] = [];
          let cursor: string | undefined;
          do {
            const page = await collection.find({ index, limit: 1000, cursor });
            docs.push(...page.items);
            cursor = page.nextCursor ?? undefined;
          } while (cursor);
          return docs;
        };
        // No request is made from here on, so the live models stay at the head the rebuild reads to.
        const [liveDocs, rebuiltDocs] = await Promise.all([all(live), all(rebuilt)]);
        const fed = ['access_log', 'consents', 'drift_state', 'geofences', 'webhook_deliveries'].includes(projection.name);
        if (fed) expect({ projection: projection.name, some: rebuiltDocs.length > 0 }).toEqual({ projection: projection.name, some: true });
        expect({ projection: projection.name, docs: rebuiltDocs }).toEqual({ projection: projection.name, docs: liveDocs });
      }
      expect(await service.runtime.backends.events.headPosition()).toBe(head);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await fresh.close();
      await service.close();
    }
  });
});
