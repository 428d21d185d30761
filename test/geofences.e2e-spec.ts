import { FenceIndex } from '../libs/monitoring/src/index.js';
import { LocationSealing } from '../libs/monitoring/src/testing/location-streams.js';
import { ADMIN_KEY, bootService, eventually, type Service } from './support/boot.js';
import { accountOf, data, json, signUp } from './support/http.js';

/** interface.md: POST /v2/geofence/create and POST /v2/service-area; the README's "Geofences" for the rest. */
describe('geofences over HTTP', () => {
  let service: Service;

  beforeAll(async () => {
    service = await bootService();
  });
  afterAll(async () => {
    await service?.close();
  });

  const MAKOLA = { lat: 5.5497, lng: -0.2093 };
  const SQUARE_WITH_HOLE = {
    type: 'Polygon',
    coordinates: [
      [
        [-0.22, 5.54],
        [-0.2, 5.54],
        [-0.2, 5.56],
        [-0.22, 5.56],
      ],
      [
        [-0.212, 5.548],
        [-0.208, 5.548],
        [-0.208, 5.552],
        [-0.212, 5.552],
        [-0.212, 5.548],
      ],
    ],
  };

  it('creates a circle fence, reads it back, lists it, and deletes it', async () => {
    const key = await signUp(service, 'Ama');
    const created = await service.request('POST', '/v2/geofence/create', {
      key,
      body: { fence_type: 'circle', center: MAKOLA, radius_m: 250, customer_id: 'cust-1', loan_id: 'loan-9', name: 'Makola stall' },
    });
    expect(created.status).toBe(201);
    const fence = await data<Record<string, unknown> & { id: string; cell_count: number }>(created);
    expect(fence).toMatchObject({
      fence_type: 'circle',
      center: MAKOLA,
      radius_m: 250,
      polygon: null,
      customer_id: 'cust-1',
      loan_id: 'loan-9',
      name: 'Makola stall',
      area_m2: Math.round(Math.PI * 250 * 250),
    });
    expect(fence.id).toMatch(/^gf_[0-9a-f]{32}$/);
    expect(fence.cell_count).toBeGreaterThan(0);
    expect(fence.cell_count).toBeLessThan(100);
    expect(typeof fence.h3_resolution).toBe('number');
    expect(Date.parse(String(fence.created_at))).not.toBeNaN();

    const read = await service.request('GET', `/v2/geofence/${fence.id}`, { key });
    expect(read.status).toBe(200);
    expect(await data(read)).toEqual(fence);

    const listed = await data<{ items: unknown[]; next_cursor: string | null }>(await service.request('GET', '/v2/geofence', { key }));
    expect(listed).toEqual({ items: [fence], next_cursor: null });
    expect((await data<{ items: unknown[] }>(await service.request('GET', '/v2/geofence?customer_id=cust-1', { key }))).items).toEqual([fence]);
    expect((await data<{ items: unknown[] }>(await service.request('GET', '/v2/geofence?customer_id=cust-2', { key }))).items).toEqual([]);

    const index = service.app.get(FenceIndex);
    const accountId = await accountOf(service, key);
    expect(index.fencesContaining(accountId, 'cust-1', MAKOLA.lat, MAKOLA.lng).map((hit) => hit.fence_id)).toEqual([fence.id]);

    const deleted = await service.request('DELETE', `/v2/geofence/${fence.id}`, { key });
    expect(deleted.status).toBe(200);
    expect(await data(deleted)).toMatchObject({ id: fence.id, deleted: true });
    // From the moment the deletion is acknowledged, pings are no longer checked against it.
    expect(index.fencesContaining(accountId, 'cust-1', MAKOLA.lat, MAKOLA.lng)).toEqual([]);
    for (const response of [await service.request('GET', `/v2/geofence/${fence.id}`, { key }), await service.request('DELETE', `/v2/geofence/${fence.id}`, { key })]) {
      expect(response.status).toBe(404);
      expect(await json(response)).toMatchObject({ success: false, error: { code: 'GEOFENCE_NOT_FOUND' } });
    }
    expect((await data<{ items: unknown[] }>(await service.request('GET', '/v2/geofence', { key }))).items).toEqual([]);
  });

  it('creates a polygon fence with a hole, closing its rings', async () => {
    const key = await signUp(service, 'Ama');
    const created = await service.request('POST', '/v2/geofence/create', { key, body: { fence_type: 'polygon', polygon: SQUARE_WITH_HOLE } });
    expect(created.status).toBe(201);
    const fence = await data<{ id: string; polygon: { coordinates: number[][][] }; customer_id: unknown; center: unknown }>(created);
    expect(fence).toMatchObject({ fence_type: 'polygon', customer_id: null, loan_id: null, name: null, center: null, radius_m: null });
    expect(fence.polygon.coordinates[0]).toHaveLength(5);
    expect(fence.polygon.coordinates[0][4]).toEqual([-0.22, 5.54]);

    // An account-wide fence applies to every customer; the hole is outside it.
    const index = service.app.get(FenceIndex);
    const accountId = await accountOf(service, key);
    expect(index.fencesContaining(accountId, 'anyone', 5.545, -0.215).map((hit) => hit.fence_id)).toEqual([fence.id]);
    expect(index.fencesContaining(accountId, 'anyone', 5.55, -0.21)).toEqual([]);
  });

  it('keeps accounts apart', async () => {
    const mine = await signUp(service, 'Ama');
    const theirs = await signUp(service, 'Ama');
    const fence = await data<{ id: string }>(await service.request('POST', '/v2/geofence/create', { key: mine, body: { fence_type: 'circle', center: MAKOLA, radius_m: 100 } }));
    expect((await service.request('GET', `/v2/geofence/${fence.id}`, { key: theirs })).status).toBe(404);
    expect((await service.request('DELETE', `/v2/geofence/${fence.id}`, { key: theirs })).status).toBe(404);
    expect((await data<{ items: unknown[] }>(await service.request('GET', '/v2/geofence', { key: theirs }))).items).toEqual([]);
    expect(service.app.get(FenceIndex).fencesContaining(await accountOf(service, theirs), 'c', MAKOLA.lat, MAKOLA.lng)).toEqual([]);
    expect((await service.request('GET', `/v2/geofence/${fence.id}`, { key: mine })).status).toBe(200);
  });

  it('answers an isochrone fence with 503 while no road network is loaded (routing.e2e-spec creates them on the starter roads)', async () => {
    const key = await signUp(service, 'Ama');
    const response = await service.request('POST', '/v2/geofence/create', { key, body: { fence_type: 'isochrone', center: MAKOLA, minutes: 5 } });
    expect(response.status).toBe(503);
    expect(await json(response)).toMatchObject({ success: false, error: { code: 'ROAD_NETWORK_NOT_LOADED' } });
  });

  const selfCrossing = { type: 'Polygon', coordinates: [[[0, 0], [0.1, 0.1], [0.1, 0], [0, 0.1], [0, 0]]] };
  it.each([
    [{}, 'fence_type'],
    [{ fence_type: 'square' }, 'fence_type'],
    [{ fence_type: 'circle', radius_m: 100 }, 'center'],
    [{ fence_type: 'circle', center: MAKOLA }, 'radius_m'],
    [{ fence_type: 'circle', center: MAKOLA, radius_m: 5 }, 'radius_m'],
    [{ fence_type: 'circle', center: MAKOLA, radius_m: 50_001 }, 'radius_m'],
    [{ fence_type: 'circle', center: MAKOLA, radius_m: '100' }, 'radius_m'],
    [{ fence_type: 'circle', center: { lat: 95, lng: 0 }, radius_m: 100 }, 'center.lat'],
    [{ fence_type: 'circle', center: { lat: 5 }, radius_m: 100 }, 'center.lng'],
    [{ fence_type: 'circle', center: [5, 0], radius_m: 100 }, 'center'],
    [{ fence_type: 'circle', center: { lat: 0, lng: 179.9999 }, radius_m: 1000 }, 'center'],
    [{ fence_type: 'circle', center: MAKOLA, radius_m: 100, polygon: SQUARE_WITH_HOLE }, 'polygon'],
    [{ fence_type: 'isochrone', center: MAKOLA }, 'minutes'],
    [{ fence_type: 'isochrone', center: MAKOLA, minutes: '5' }, 'minutes'],
    [{ fence_type: 'isochrone', center: MAKOLA, minutes: 0 }, 'minutes'],
    [{ fence_type: 'isochrone', center: MAKOLA, minutes: 5, mode: 'rocket' }, 'mode'],
    [{ fence_type: 'isochrone', center: MAKOLA, minutes: 5, mode: 7 }, 'mode'],
    [{ fence_type: 'polygon' }, 'polygon'],
    [{ fence_type: 'polygon', polygon: 'POLYGON((0 0, 1 0, 1 1))' }, 'polygon'],
    [{ fence_type: 'polygon', polygon: { type: 'Polygon', coordinates: 'x' } }, 'polygon.coordinates'],
    [{ fence_type: 'polygon', polygon: { type: 'Polygon', coordinates: [[[0, 0], [0.1, 0], [0.1]]] } }, 'polygon.coordinates[0][2]'],
    [{ fence_type: 'polygon', polygon: { type: 'Polygon', coordinates: [[[0, 0], [0.1, 0], [0.1, null]]] } }, 'polygon.coordinates[0][2][1]'],
    [{ fence_type: 'polygon', polygon: selfCrossing }, 'polygon.coordinates[0]'],
    [{ fence_type: 'polygon', polygon: SQUARE_WITH_HOLE, center: MAKOLA }, 'center'],
    [{ fence_type: 'circle', center: MAKOLA, radius_m: 100, customer_id: 'has space' }, 'customer_id'],
    [{ fence_type: 'circle', center: MAKOLA, radius_m: 100, loan_id: 'x'.repeat(129) }, 'loan_id'],
    [{ fence_type: 'circle', center: MAKOLA, radius_m: 100, name: 'x'.repeat(101) }, 'name'],
    [{ fence_type: 'circle', center: MAKOLA, radius_m: 100, name: 'bell\u0007' }, 'name'],
    [{ fence_type: 'circle', center: MAKOLA, radius_m: 100, colour: 'red' }, 'colour'],
  ])('refuses %j naming %s', async (body, field) => {
    const key = await signUp(service, 'Ama');
    const response = await service.request('POST', '/v2/geofence/create', { key, body });
    expect(response.status).toBe(400);
    expect(await json(response)).toMatchObject({ success: false, error: { code: 'INVALID_PARAM', field } });
  });

  it('refuses a body that is not JSON, legacy keys, and unknown ids without a 500', async () => {
    const key = await signUp(service, 'Ama');
    const garbage = await service.request('POST', '/v2/geofence/create', { key, rawBody: '{"fence_type":' });
    expect(garbage.status).toBe(400);
    expect(await json(garbage)).toMatchObject({ error: { code: 'INVALID_JSON' } });

    const issued = await service.request('POST', '/v2/admin/keys', { key: ADMIN_KEY, body: { name: 'old integration', tier: 'pro' } });
    const legacy = (await data<{ key: string }>(issued)).key;
    const refused = await service.request('POST', '/v2/geofence/create', { key: legacy, body: { fence_type: 'circle', center: MAKOLA, radius_m: 100 } });
    expect(refused.status).toBe(403);
    expect(await json(refused)).toMatchObject({ error: { code: 'ACCOUNT_KEY_REQUIRED' } });

    for (const id of ['nope', 'gf_' + '0'.repeat(32), '..%2F..%2Fetc']) {
      const response = await service.request('GET', `/v2/geofence/${id}`, { key });
      expect(response.status).toBe(404);
    }
    const badLimit = await service.request('GET', '/v2/geofence?limit=0', { key });
    expect(badLimit.status).toBe(400);
    expect(await json(badLimit)).toMatchObject({ error: { code: 'INVALID_PARAM', field: 'limit' } });
    const badCursor = await service.request('GET', '/v2/geofence?cursor=bogus', { key });
    expect(badCursor.status).toBe(400);
  });

  it('pages the list newest first', async () => {
    const key = await signUp(service, 'Ama');
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const created = await service.request('POST', '/v2/geofence/create', { key, body: { fence_type: 'circle', center: { lat: 5.6 + i / 100, lng: -0.2 }, radius_m: 50 } });
      ids.push((await data<{ id: string }>(created)).id);
    }
    const first = await data<{ items: Array<{ id: string }>; next_cursor: string }>(await service.request('GET', '/v2/geofence?limit=2', { key }));
    expect(first.items).toHaveLength(2);
    expect(first.next_cursor).toEqual(expect.any(String));
    const second = await data<{ items: Array<{ id: string }>; next_cursor: null }>(
      await service.request('GET', `/v2/geofence?limit=2&cursor=${encodeURIComponent(first.next_cursor)}`, { key }),
    );
    expect([...first.items, ...second.items].map((fence) => fence.id).sort()).toEqual([...ids].sort());
    expect(second.next_cursor).toBeNull();
  });

  it('indexes a fence another instance wrote to the log, through the subscription', async () => {
    const key = await signUp(service, 'Ama');
    const accountId = await accountOf(service, key);
    const fenceId = `gf_${'ab'.repeat(16)}`;
    // What another API instance's create appends; this process learns of it only from the log.
    await service.runtime.backends.events.append(
      `geofence-${accountId}:${fenceId}`,
      [
        {
          type: 'GeofenceCreated',
          data: {
            account_id: accountId,
            fence_id: fenceId,
            fence_type: 'circle',
            name: null,
            customer_id: null,
            loan_id: null,
            center: { lat: 6.6885, lng: -1.6244 },
            radius_m: 400,
            polygon: null,
            created_at: new Date().toISOString(),
          },
          metadata: { schema_version: 1 },
        },
      ],
      'no_stream',
    );
    const index = service.app.get(FenceIndex);
    const hits = await eventually(async () => {
      const found = index.fencesContaining(accountId, 'cust-7', 6.6885, -1.6244);
      return found.length > 0 ? found : undefined;
    });
    expect(hits).toEqual([{ fence_id: fenceId, fence_type: 'circle', customer_id: null, loan_id: null }]);
    expect((await service.request('GET', `/v2/geofence/${fenceId}`, { key })).status).toBe(200);
  });

  it('records a geofence entry when a consenting customer pings inside a fence, not for another customer', async () => {
    const key = await signUp(service, 'Ama');
    const accountId = await accountOf(service, key);
    for (const customer_id of ['cust-9', 'cust-10']) await service.request('POST', '/v2/consent/grant', { key, body: { customer_id } });
    const fence = await data<{ id: string }>(
      await service.request('POST', '/v2/geofence/create', { key, body: { fence_type: 'circle', center: MAKOLA, radius_m: 300, customer_id: 'cust-9', loan_id: 'loan-1' } }),
    );
    for (const customer_id of ['cust-9', 'cust-10']) {
      const ping = await service.request('POST', '/v2/monitoring/pings', { key, body: { customer_id, lat: MAKOLA.lat + 0.001, lng: MAKOLA.lng } });
      expect(ping.status).toBeLessThan(300);
    }
    // Pings are processed before the request answers; the entry's fields are sealed under the customer's key.
    const events = await service.runtime.backends.events.readAll({ maxCount: 100_000 });
    const entries = events.filter((event) => event.type === 'GeofenceEntered' && event.data.account_id === accountId);
    expect(entries.map((event) => event.data.customer_id)).toEqual(['cust-9']);
    const opened = await service.app.get(LocationSealing).open(entries[0]);
    expect(opened?.data).toMatchObject({ customer_id: 'cust-9', fence_id: fence.id, fence_type: 'circle', loan_id: 'loan-1' });
  });

  describe('service area', () => {
    const SQUARE = { type: 'Polygon', coordinates: [[[-0.22, 5.54], [-0.2, 5.54], [-0.2, 5.56], [-0.22, 5.56], [-0.22, 5.54]]] };

    it('answers the cells of a polygon as hex codes and H3 indexes, compacted on request', async () => {
      const key = await signUp(service, 'Ama');
      const response = await service.request('POST', '/v2/service-area', { key, body: { polygon: SQUARE, resolution: 9 } });
      expect(response.status).toBe(200);
      const area = await data<{ cells: string[]; h3_cells: string[]; cell_count: number; resolution: number; containment: string; compact: boolean }>(response);
      expect(area).toMatchObject({ resolution: 9, containment: 'overlapping', compact: false });
      // 0.02° × 0.02° ≈ 4.9 km², cells of res 9 ≈ 0.105 km²: about 47 inside, plus those touching the edge.
      expect(area.cell_count).toBeGreaterThan(47);
      expect(area.cell_count).toBeLessThan(120);
      expect(area.cells).toHaveLength(area.cell_count);
      expect(area.h3_cells).toHaveLength(area.cell_count);
      expect(new Set(area.h3_cells).size).toBe(area.cell_count);
      expect(area.cells[0]).toMatch(/^[0-9A-Z]+$/);

      const centre = await data<{ cell_count: number }>(await service.request('POST', '/v2/service-area', { key, body: { polygon: SQUARE, resolution: 9, containment: 'center' } }));
      expect(centre.cell_count).toBeLessThan(area.cell_count);
      const fine = await data<{ cell_count: number }>(await service.request('POST', '/v2/service-area', { key, body: { polygon: SQUARE, resolution: 11, containment: 'full' } }));
      const compacted = await data<{ cell_count: number }>(
        await service.request('POST', '/v2/service-area', { key, body: { polygon: SQUARE, resolution: 11, containment: 'full', compact: true } }),
      );
      expect(compacted.cell_count).toBeLessThan(fine.cell_count / 3);
    });

    it('refuses too many cells with a clear 400 instead of truncating', async () => {
      const key = await signUp(service, 'Ama');
      const response = await service.request('POST', '/v2/service-area', { key, body: { polygon: SQUARE, resolution: 13 } });
      expect(response.status).toBe(400);
      const body = await json<{ error: { code: string; field: string; message: string } }>(response);
      expect(body.error).toMatchObject({ code: 'SERVICE_AREA_TOO_LARGE', field: 'resolution' });
      expect(body.error.message).toMatch(/coarser resolution/);
    });

    it.each([
      [{}, 'polygon'],
      [{ polygon: SQUARE, resolution: 16 }, 'resolution'],
      [{ polygon: SQUARE, resolution: 8.5 }, 'resolution'],
      [{ polygon: SQUARE, containment: 'most' }, 'containment'],
      [{ polygon: SQUARE, compact: 'yes' }, 'compact'],
      [{ polygon: { type: 'Polygon', coordinates: [[[0, 0], [1, 1], [1, 0], [0, 1]]] } }, 'polygon.coordinates[0]'],
    ])('refuses %j naming %s', async (body, field) => {
      const key = await signUp(service, 'Ama');
      const response = await service.request('POST', '/v2/service-area', { key, body });
      expect(response.status).toBe(400);
      expect(await json(response)).toMatchObject({ error: { code: 'INVALID_PARAM', field } });
    });
  });

  it('describes the endpoints in the OpenAPI document', async () => {
    const document = await json<{ paths: Record<string, Record<string, { responses: Record<string, unknown> }>> }>(await service.request('GET', '/v2/openapi.json'));
    expect(Object.keys(document.paths['/v2/geofence/create'])).toEqual(['post']);
    expect(document.paths['/v2/geofence/create'].post.responses).not.toHaveProperty('501', expect.objectContaining({ description: expect.stringMatching(/not built yet/) }));
    expect(Object.keys(document.paths['/v2/geofence/{id}']).sort()).toEqual(['delete', 'get']);
    expect(document.paths['/v2/service-area']).toHaveProperty('post');
  });
});

describe('geofences across a restart', () => {
  it('loads every active fence into the index before serving again', async () => {
    const first = await bootService();
    const key = await signUp(first, 'Kofi');
    const create = (body: unknown) => first.request('POST', '/v2/geofence/create', { key, body });
    const kept = ((await (await create({ fence_type: 'circle', center: { lat: 5.6, lng: -0.2 }, radius_m: 500 })).json()) as { data: { id: string } }).data.id;
    const dropped = ((await (await create({ fence_type: 'circle', center: { lat: 5.6, lng: -0.2 }, radius_m: 800 })).json()) as { data: { id: string } }).data.id;
    await first.request('DELETE', `/v2/geofence/${dropped}`, { key });
    const accountId = await accountOf(first, key);
    await first.close();

    const second = await bootService({ dataDir: first.dataDir });
    try {
      const hits = second.app.get(FenceIndex).fencesContaining(accountId, 'c', 5.6, -0.2);
      expect(hits.map((hit) => hit.fence_id)).toEqual([kept]);
    } finally {
      await second.close();
    }
  });
});
