import { jest } from '@jest/globals';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { QueryBus } from '@nestjs/cqrs';
import { importBoundaries, importGeoNames, importOsm } from '../libs/places/src/index.js';
import { FileDatasetStore } from '../libs/platform/src/index.js';
import { importRoads } from '../libs/routing/src/index.js';
import { bootService, eventually, type Service } from './support/boot.js';
import { signUp } from './support/http.js';

/**
 * Issue 28, item 3 (ADR 40): the routes answering through Fastify's schema
 * writer send what JSON.stringify would have sent of the very answer their
 * handler computed (same keys, same values), on the starter pack's places,
 * boundaries, landmarks and roads (reverse and route: where the bench kept
 * the writer). The handler's answer is read off the query bus the controller calls.
 */
const root = path.resolve(import.meta.dirname, '..');
const starter = (file: string) => path.join(root, 'starter/ghana', file);
type Spy = { mock: { calls: unknown[][]; results: Array<{ value: unknown }> } };

describe('answers written from their schema equal JSON.stringify of the handler answer', () => {
  let service: Service;
  let key: string;
  let queries: Spy;

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
  }, 120_000);
  afterAll(async () => {
    await service?.close();
  });

  /** The answer of the last `name` query the bus executed, as JSON.stringify writes it. */
  const handled = async (spy: Spy, name: string): Promise<unknown> => {
    const index = spy.mock.calls.map((call) => (call[0] as object).constructor.name).lastIndexOf(name);
    expect(index).toBeGreaterThanOrEqual(0);
    return JSON.parse(JSON.stringify(await spy.mock.results[index].value));
  };

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

  it('POST /v2/route with landmark narration and an alternative', async () => {
    const data = (await served('POST', '/v2/route', { from: { lat: 5.55, lng: -0.3 }, to: { lat: 5.62, lng: -0.18 }, narration: 'both', alternatives: 1 })) as { steps: unknown[] };
    expect(data.steps.length).toBeGreaterThan(2);
    expect(data).toStrictEqual(await handled(queries, 'PlanRouteQuery'));
  });
});
