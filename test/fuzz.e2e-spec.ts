import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { importBoundaries, importGeoNames, importOsm } from '../libs/places/src/index.js';
import { buildPmtilesArchive } from '../libs/tiles/src/testing/pmtiles-fixture.js';
import { ADMIN_KEY, bootService, type Service } from './support/boot.js';
import { accountOf, signUp } from './support/http.js';
import { casesFor, keylessCasesFor, operationKeysOf, operationsOf, type FuzzCase, type OpenApiDocument, type Operation } from './support/openapi-fuzz.js';
import { seededRandom } from './support/seeded-random.js';
import { FileDatasetStore } from '../libs/platform/src/index.js';

/**
 * Every operation of the OpenAPI document (generated from the code, so a new
 * endpoint is fuzzed without touching this file) gets malformed bodies,
 * query strings and path parameters, with a key that passes its access
 * check and without one. No answer may be a 5xx a client caused, and every
 * answer is in the envelope (decisions.md, "Fixed behaviour"; issue #10).
 */
const SEED = 0x5eed_0010;
const fixture = (name: string) => path.resolve(import.meta.dirname, '../libs/places/src/__fixtures__', name);
const CONCURRENCY = 6;

/** 5xx answers that describe the deployment, not the request; documented per endpoint. */
const STATE_ANSWERS = new Set(['501 NOT_IMPLEMENTED', '503 DATASET_NOT_LOADED', '503 ROAD_NETWORK_NOT_LOADED', '503 ROUTING_ENGINE_UNAVAILABLE', '503 GOOGLE_SIGN_IN_UNAVAILABLE', '503 LANGUAGE_QUOTA', '503 FORECAST_NOT_CONFIGURED']);

/** Calls that end the key they are made with; they get a key of their own. */
const ENDS_ITS_KEY = new Set(['POST /v2/me/rotate', 'DELETE /v2/me/key']);

describe('fuzzing every operation of the OpenAPI document', () => {
  let service: Service;
  let keys: { account: string; sacrificial: string; person: string };

  beforeAll(async () => {
    // Places, landmarks and a tile archive (named as the fuzzer's path placeholder), so that those handlers get past "nothing loaded".
    const dataDir = mkdtempSync(path.join(tmpdir(), 'location-api-fuzz-'));
    const store = new FileDatasetStore(path.join(dataDir, 'reference'));
    await importBoundaries(store, [fixture('boundaries-regions.geojson'), fixture('boundaries-districts.geojson')]);
    await importGeoNames(store, fixture('geonames-sample.txt'));
    await importOsm(store, fixture('landmarks-sample.osm'));
    mkdirSync(path.join(dataDir, 'tiles'));
    writeFileSync(path.join(dataDir, 'tiles', 'fuzz-1.pmtiles'), buildPmtilesArchive({ tiles: [{ z: 0, x: 0, y: 0, data: Buffer.from('tile') }] }));
    // TRUST_PROXY: each request comes from its own address (X-Forwarded-For), so per-IP throttles do not hide the handlers.
    service = await bootService({ dataDir, env: { TRUST_PROXY: 'true', BCRYPT_COST: '4' } });
    const account = await signUp(service, 'Fuzz');
    const accountId = await accountOf(service, account);
    // Enterprise and banking, so that tier and banking checks let the malformed input through to the handlers.
    await service.request('PUT', `/v2/admin/accounts/${accountId}/tier`, { key: ADMIN_KEY, body: { tier: 'enterprise' } });
    await service.request('POST', `/v2/admin/accounts/${accountId}/banking`, { key: ADMIN_KEY, body: { enabled: true } });
    await service.request('POST', '/v2/consent/grant', { key: account, body: { customer_id: 'fuzz-1' } });
    // The partner locator acts for a signed-in person: its operations get a personal token.
    const email = `fuzz-person-${Math.random().toString(36).slice(2)}@example.com`;
    const personKey = (await (await service.request('POST', '/v2/self/signup', { body: { name: 'Person', email } })).json()) as { data: { key: string } };
    await service.request('POST', '/v2/me/password', { key: personKey.data.key, body: { password: 'kelewele at midnight' } });
    const session = (await (await service.request('POST', '/v2/auth/login', { key: personKey.data.key, body: { email, password: 'kelewele at midnight' } })).json()) as { data: { token: string } };
    keys = { account, sacrificial: await signUp(service, 'Sacrificial'), person: session.data.token };
  }, 60_000);
  afterAll(async () => {
    await service?.close();
  });

  it('answers no 5xx and only envelopes, on every operation', async () => {
    const started = performance.now();
    const document = (await (await service.request('GET', '/v2/openapi.json')).json()) as OpenApiDocument;
    const operations = operationsOf(document);
    expect(operations.length).toBeGreaterThan(50);
    const random = seededRandom(SEED);
    const cases: Array<FuzzCase & { key?: string }> = [];
    for (const operation of operations) {
      const key = keyFor(operation, keys);
      for (const fuzzCase of casesFor(operation, random)) cases.push({ ...fuzzCase, key });
      cases.push(...keylessCasesFor(operation, random));
    }

    const failures: string[] = [];
    const statuses = new Map<number, number>();
    // Operations that answered at least one case with a key their access check accepted (or none needed).
    const reached = new Set<string>();
    let next = 0;
    const worker = async () => {
      while (next < cases.length) {
        const index = next++;
        const fuzzCase = cases[index];
        const problem = await send(service, fuzzCase, index, statuses, reached);
        if (problem) failures.push(`${fuzzCase.method} ${fuzzCase.operation.path} [${fuzzCase.label}]: ${problem}`);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));

    const seconds = (performance.now() - started) / 1000;
    process.stdout.write(`fuzz: ${operations.length} operations, ${cases.length} requests in ${seconds.toFixed(1)} s; statuses ${JSON.stringify(Object.fromEntries([...statuses].sort()))}\n`);
    expect(failures).toEqual([]);
    // Coverage (issue 31): every operation of the served document was fuzzed past its access check, so an endpoint
    // the fuzzer cannot reach (a key it lacks, a method it skips) fails here instead of going untested.
    expect([...reached].sort()).toEqual([...new Set(operationKeysOf(document))].sort());
    // The service still answers normally afterwards.
    expect((await service.request('GET', '/v2/me', { key: keys.account })).status).toBe(200);
  }, 120_000);
});

function keyFor(operation: Operation, keys: { account: string; sacrificial: string; person: string }): string | undefined {
  if (!operation.secured && !operation.path.startsWith('/v2/admin/')) return undefined;
  if (operation.path.startsWith('/v2/admin/')) return ADMIN_KEY;
  if (operation.path.startsWith('/v2/locator/')) return keys.person;
  return ENDS_ITS_KEY.has(`${operation.method} ${operation.path}`) ? keys.sacrificial : keys.account;
}

/** Sends one case; answers what is wrong with the answer, or undefined. */
async function send(service: Service, fuzzCase: FuzzCase & { key?: string }, index: number, statuses: Map<number, number>, reached: Set<string>): Promise<string | undefined> {
  const headers: Record<string, string> = { ...fuzzCase.headers, 'x-forwarded-for': `10.${(index >> 16) & 255}.${(index >> 8) & 255}.${index & 255}` };
  if (fuzzCase.key !== undefined) headers['x-api-key'] = fuzzCase.key;
  let response: Response;
  try {
    response = await fetch(`${service.url}${fuzzCase.url}`, { method: fuzzCase.method, headers, body: fuzzCase.body });
  } catch (error) {
    return `no answer: ${String((error as { cause?: unknown }).cause ?? error)}`;
  }
  statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
  const keyed = fuzzCase.key !== undefined || !fuzzCase.operation.secured;
  if (keyed && fuzzCase.headers['x-api-key'] === undefined && response.status !== 401 && response.status !== 403) reached.add(`${fuzzCase.method} ${fuzzCase.operation.path}`);
  const text = await response.text();
  if (fuzzCase.method === 'HEAD' || response.status === 204 || response.status === 304) return undefined;
  const contentType = response.headers.get('content-type') ?? '';
  // Binary answers (PMTiles archives) are outside the envelope by design.
  if (response.status < 300 && !contentType.startsWith('application/json')) return undefined;
  let body: { success?: unknown; error?: { code?: unknown; message?: unknown; request_id?: unknown } };
  try {
    body = JSON.parse(text);
  } catch {
    return `${response.status} not JSON (${contentType}): ${text.slice(0, 120)}`;
  }
  // decisions.md, "Fixed behaviour": the JWKS is a bare `{"keys": [...]}` for standard JOSE clients.
  if (fuzzCase.url.startsWith('/v2/.well-known/jwks.json') && response.status === 200) return Array.isArray((body as { keys?: unknown }).keys) ? undefined : `200 JWKS without keys: ${text.slice(0, 120)}`;
  if (typeof body?.success !== 'boolean') return `${response.status} outside the envelope: ${text.slice(0, 120)}`;
  if (body.success) return response.status >= 500 ? `${response.status} with success true` : undefined;
  const { code, message, request_id: requestId } = body.error ?? {};
  if (typeof code !== 'string' || typeof message !== 'string' || typeof requestId !== 'string') return `${response.status} error without code, message or request_id: ${text.slice(0, 120)}`;
  if (requestId !== response.headers.get('x-request-id')) return `${response.status} ${code}: request_id ${requestId} is not the X-Request-Id header`;
  if (response.status >= 500 && !STATE_ANSWERS.has(`${response.status} ${code}`)) return `${response.status} ${code}: ${message}`;
  return undefined;
}
