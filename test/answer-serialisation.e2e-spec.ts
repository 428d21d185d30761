import { jest } from '@jest/globals';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { importBoundaries, importGeoNames, importOsm } from '../libs/places/src/index.js';
import { FileDatasetStore } from '../libs/platform/src/index.js';
import { importRoads } from '../libs/routing/src/index.js';
import { bootService, eventually, type Service } from './support/boot.js';
import { signUp } from './support/http.js';

/**
 * Issue 28, item 3 (ADR 40): the routes answering through Fastify's schema
 * writer send what JSON.stringify would have sent of the very answer their
 * handler computed (same keys, same values), on the starter pack's places,
 * boundaries, landmarks and roads. The handler's answer is read off the
 * query (command) bus the controller calls.
 */
const root = path.resolve(import.meta.dirname, '..');
const starter = (file: string) => path.join(root, 'starter/ghana', file);
type Spy = { mock: { calls: unknown[][]; results: Array<{ value: unknown }> } };

describe('answers written from their schema equal JSON.stringify of the handler answer', () => {
  let service: Service;
  let key: string;
  let queries: Spy;
  let commands: Spy;

  beforeAll(async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'location-api-writers-'));
    const store = new FileDatasetStore(path.join(dataDir, 'reference'));
    await importBoundaries(store, [starter('boundaries/gha_adm1_regions.geojson.gz'), starter('boundaries/gha_adm2_districts.geojson.gz')]);
    await importGeoNames(store, starter('places/geonames_GH.txt.gz'));
    await importOsm(store, starter('landmarks/osm-pois.osm.gz'));
    await importRoads(store, starter('roads/roads.osm.gz'));
    service = await bootService({ dataDir });
    key = await signUp(service, 'Writers');
    // The graph is prepared after the server listens; /health is 200 once places and roads are loaded.
    await eventually(async () => ((await fetch(`${service.url}/health`)).status === 200 ? true : undefined), 60_000);
    queries = jest.spyOn(service.app.get(QueryBus), 'execute');
    commands = jest.spyOn(service.app.get(CommandBus), 'execute');
  }, 120_000);
  afterAll(async () => {
    await service?.close();
  });

  /** The answer of the last `name` message the bus executed (or the part of it `pick` takes), as JSON.stringify writes it. */
  const handled = async (spy: Spy, name: string, pick: (result: never) => unknown = (result) => result): Promise<unknown> => {
    const index = spy.mock.calls.map((call) => (call[0] as object).constructor.name).lastIndexOf(name);
    expect(index).toBeGreaterThanOrEqual(0);
    return JSON.parse(JSON.stringify(pick((await spy.mock.results[index].value) as never)));
  };
  const outcomes = (result: { outcomes: unknown[] }) => result.outcomes;

  const served = async (method: string, url: string, body?: unknown) => {
    const response = await service.request(method, url, { key, body });
    const text = await response.text();
    expect({ url, status: response.status }).toEqual({ url, status: 200 });
    return (JSON.parse(text) as { data: unknown }).data;
  };

  it('GET /v2/reverse with an address (region, district, locality, road, landmark)', async () => {
    const data = (await served('GET', '/v2/reverse?lat=5.5495&lng=-0.2095')) as { address: { formatted: string | null } };
    expect(data.address.formatted).toEqual(expect.any(String));
    expect(data).toStrictEqual(await handled(queries, 'ReverseQuery'));
  });

  it('GET /v2/reverse outside coverage (address parts null)', async () => {
    expect(await served('GET', '/v2/reverse?lat=48.85&lng=2.35&source=agent_verified&confirmed_by=agent-17&accuracy_m=4')).toStrictEqual(await handled(queries, 'ReverseQuery'));
  });

  it('GET /v2/lookup', async () => {
    expect(await served('GET', '/v2/lookup?address=0QP-PAN-VTWH')).toStrictEqual(await handled(queries, 'LookupQuery'));
  });

  it('GET /v2/search, near a point and outside coverage', async () => {
    const near = (await served('GET', '/v2/search?q=makola&lat=5.55&lng=-0.21&limit=10')) as { items: unknown[] };
    expect(near.items.length).toBeGreaterThan(0);
    expect(near).toStrictEqual(await handled(queries, 'SearchPlacesQuery'));
    expect(await served('GET', '/v2/search?q=lagos')).toStrictEqual(await handled(queries, 'SearchPlacesQuery'));
  });

  it('POST /v2/route with landmark narration and an alternative', async () => {
    const data = (await served('POST', '/v2/route', { from: { lat: 5.55, lng: -0.3 }, to: { lat: 5.62, lng: -0.18 }, narration: 'both', alternatives: 1 })) as { steps: unknown[] };
    expect(data.steps.length).toBeGreaterThan(2);
    expect(data).toStrictEqual(await handled(queries, 'PlanRouteQuery'));
  });

  it('POST /v2/monitoring/pings: a batch with accepted, duplicate and refused outcomes, and the single form', async () => {
    await service.request('POST', '/v2/consent/grant', { key, body: { customer_id: 'cust-writers' } });
    const ping = { customer_id: 'cust-writers', lat: 5.55, lng: -0.21, accuracy_m: 9, recorded_at: new Date(Date.now() - 60_000).toISOString() };
    const batch = (await served('POST', '/v2/monitoring/pings', { pings: [ping, ping, { ...ping, customer_id: 'cust-no-consent' }] })) as { items: Array<{ status: string }> };
    expect(batch.items.map((item) => item.status)).toEqual(expect.arrayContaining(['accepted', 'refused']));
    expect(batch.items).toStrictEqual(await handled(commands, 'RecordPingBatchCommand', outcomes));
    const single = await served('POST', '/v2/monitoring/pings', ping);
    expect([single]).toStrictEqual(await handled(commands, 'RecordPingBatchCommand', outcomes));
  });
});
