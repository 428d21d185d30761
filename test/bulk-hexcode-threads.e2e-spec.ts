import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { bulkAnswerChunks } from '../libs/addressing/src/index.js';
import { ADMIN_KEY, bootService, eventually, type Service } from './support/boot.js';
import { signUp } from './support/http.js';

/**
 * POST /v2/hexcode/bulk parses, validates, codes and serialises in a worker
 * thread (ADR 0041): over HTTP nothing but the event loop's freedom may
 * change. Checked in process (jest runs the sources: the pool runs the job on
 * the event loop) and in the compiled service with one bulk thread: a valid
 * request answers the bytes the handler made before the move (the domain's
 * bulkAnswerChunks over the parsed items, points named as GET /v2/reverse
 * names them), an invalid one the envelope the validation pipe gave before
 * (recorded from the service before the change), and the quota counts the
 * items as the bytes spell them.
 */

const POINTS = [
  { lat: 5.6037, lng: -0.187 },
  { lat: 6.6885, lng: -1.6244 },
  { lat: 9.4008, lng: -0.8393 },
];
const ITEMS: unknown[] = [
  ...Array.from({ length: 700 }, (_, index) => ({ ...POINTS[index % 3], ...(index % 4 === 0 ? { id: `kɔkɔɔ-${index}-😀` } : index % 4 === 1 ? { id: index } : {}) })),
  '6Q3-HQK-Q4ZA',
  { code: '6q3hqkq4za', id: 'x' },
  { code: '6Q3-HQK-Q4ZB' },
  { lat: 95, lng: 0 },
  { lat: 'x', lng: 0 },
  { lat: 5.6, lng: -0.18, resolution: 16 },
  { lat: 5.6, lng: -0.18, colour: 'red' },
  42,
  null,
];
const VALID = { items: ITEMS, resolution: 12 };

/** The route's answers before the move, recorded from the service at the parent commit (request_id aside). */
const BEFORE: Array<[string | null, number, Record<string, unknown>]> = [
  ['{"items":[1,2', 400, { code: 'INVALID_JSON', message: 'request body is not valid JSON', field: 'body' }],
  ['', 400, { code: 'INVALID_JSON', message: 'request body is not valid JSON', field: 'body' }],
  ['null', 400, { code: 'INVALID_PARAM', message: 'request body must be a JSON object, not null', field: 'body' }],
  ['[{"lat":1,"lng":2}]', 400, { code: 'INVALID_PARAM', message: 'request body must be a JSON object, not an array', field: 'body' }],
  ['42', 400, { code: 'INVALID_PARAM', message: 'request body must be a JSON object, not a number', field: 'body' }],
  ['"x"', 400, { code: 'INVALID_PARAM', message: 'request body must be a JSON object, not a string', field: 'body' }],
  ['{"items":"6Q3-HQK-Q4ZA"}', 400, { code: 'INVALID_PARAM', message: 'items holds at most 10000 items; split the batch', field: 'items' }],
  ['{"items":[]}', 400, { code: 'INVALID_PARAM', message: 'items must hold at least one item', field: 'items' }],
  ['{}', 400, { code: 'INVALID_PARAM', message: 'items holds at most 10000 items; split the batch', field: 'items' }],
  ['{"items":["6Q3-HQK-Q4ZA"],"resolution":16}', 400, { code: 'INVALID_PARAM', message: 'resolution must be an integer from 0 to 15', field: 'resolution' }],
  ['{"items":["6Q3-HQK-Q4ZA"],"resolution":1.5}', 400, { code: 'INVALID_PARAM', message: 'resolution must be an integer from 0 to 15', field: 'resolution' }],
  [
    '{"items":["6Q3-HQK-Q4ZA"],"resolutoin":12}',
    400,
    {
      code: 'INVALID_PARAM',
      message: 'resolutoin is not a property of this request (use resolution); accepted: items, resolution',
      field: 'resolutoin',
      details: { unknown: 'resolutoin', accepted: ['items', 'resolution'], use: 'resolution' },
    },
  ],
  ['{"items":[{"__proto__":{"x":1}}]}', 400, { code: 'INVALID_JSON', message: 'request body is not valid JSON', field: 'body' }],
  ['{"items":[1],"constructor":{"prototype":{}}}', 400, { code: 'INVALID_JSON', message: 'request body is not valid JSON', field: 'body' }],
  [null, 400, { code: 'INVALID_PARAM', message: 'items holds at most 10000 items; split the batch', field: 'items' }],
];
/** A lone surrogate: refused by the walk the JSON parser ran before (http-hardening.e2e-spec.ts words it for other routes). */
const LONE_SURROGATE = '{"items":["6Q3-HQK-Q4ZA",{"code":"\\ud800"}]}';

interface Caller {
  post(body: string | null, key: string): Promise<Response>;
  get(url: string, key: string): Promise<Response>;
}

function callerAt(base: string): Caller {
  return {
    post: (body, key) => fetch(`${base}/v2/hexcode/bulk`, { method: 'POST', headers: { 'x-api-key': key, ...(body === null ? {} : { 'content-type': 'application/json' }) }, ...(body === null ? {} : { body }) }),
    get: (url, key) => fetch(`${base}${url}`, { headers: { 'x-api-key': key } }),
  };
}

/** What the handler answered before the move: bulkAnswerChunks over the parsed items, points named as /v2/reverse names them. */
async function answerBefore(caller: Caller, key: string, body: { items: unknown[]; resolution?: number }): Promise<string> {
  const names = new Map<string, unknown>();
  for (const { lat, lng } of POINTS) {
    const reversed = (await (await caller.get(`/v2/reverse?lat=${lat}&lng=${lng}`, key)).json()) as { data: { address: unknown } };
    names.set(`${lat},${lng}`, reversed.data.address);
  }
  const name = (lat: number, lng: number) => {
    const address = names.get(`${lat},${lng}`);
    if (address === undefined) throw new Error(`no reverse name fetched for ${lat},${lng}`);
    return address as never;
  };
  return [...bulkAnswerChunks(body.items, body.resolution ?? 13, name)].join('');
}

async function checkSameAnswers(caller: Caller, key: string): Promise<void> {
  const response = await caller.post(JSON.stringify(VALID), key);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
  expect(await response.text()).toBe(await answerBefore(caller, key, VALID));
  for (const [body, status, error] of BEFORE) {
    const refused = await caller.post(body, key);
    const answer = (await refused.json()) as { success: boolean; error: Record<string, unknown> };
    const { request_id: requestId, ...rest } = answer.error;
    expect({ body, status: refused.status, success: answer.success, error: rest }).toEqual({ body, status, success: false, error });
    expect(requestId).toBe(refused.headers.get('x-request-id'));
  }
  const surrogate = await caller.post(LONE_SURROGATE, key);
  expect(surrogate.status).toBe(400);
  expect(await surrogate.json()).toMatchObject({ success: false, error: { code: 'INVALID_PARAM', field: 'items[1].code', message: expect.stringContaining('lone UTF-16 surrogate') } });
}

async function remaining(response: Response): Promise<number> {
  return Number(response.headers.get('x-ratelimit-remaining'));
}

describe('bulk hex coding off the event loop, in process', () => {
  let service: Service;
  let key: string;
  let caller: Caller;

  beforeAll(async () => {
    service = await bootService();
    key = await signUp(service, 'Bulk');
    const accountId = ((await (await service.request('GET', '/v2/me', { key })).json()) as { data: { account_id: string } }).data.account_id;
    expect((await service.request('PUT', `/v2/admin/accounts/${accountId}/tier`, { key: ADMIN_KEY, body: { tier: 'enterprise' } })).status).toBe(200);
    caller = callerAt(service.url);
  });
  afterAll(async () => {
    await service?.close();
  });

  it('answers a valid request with the bytes it answered before, and invalid ones with the same envelope', async () => {
    await checkSameAnswers(caller, key);
  });

  it('counts the items against the quota as the bytes spell them, before the body is parsed', async () => {
    const first = await remaining(await caller.post('{"items":["6Q3-HQK-Q4ZA"]}', key));
    // An escaped member name is the same member to JSON.parse: it counts its 5 items.
    const escaped = await caller.post('{"\\u0069tems":["6Q3-HQK-Q4ZA","6Q3-HQK-Q4ZA","6Q3-HQK-Q4ZA","6Q3-HQK-Q4ZA","6Q3-HQK-Q4ZA"]}', key);
    expect(escaped.status).toBe(200);
    expect(((await escaped.json()) as { data: { count: number } }).data.count).toBe(5);
    expect(await remaining(escaped)).toBe(first - 5);
    // The last member of a name is the one parsed, and the one counted.
    const twice = await caller.post('{"items":["6Q3-HQK-Q4ZA","6Q3-HQK-Q4ZA","6Q3-HQK-Q4ZA"],"items":["6Q3-HQK-Q4ZA"]}', key);
    expect(((await twice.json()) as { data: { count: number } }).data.count).toBe(1);
    expect(await remaining(twice)).toBe(first - 6);
  });
});

const root = path.resolve(import.meta.dirname, '..');

describe('bulk hex coding in the compiled service, in its thread', () => {
  let child: ChildProcess;
  let caller: Caller;
  let key: string;
  let base: string;

  beforeAll(async () => {
    const port = 21_000 + Math.floor(Math.random() * 1000);
    base = `http://127.0.0.1:${port}`;
    child = spawn(process.execPath, ['scripts/start.mjs', 'all-in-one'], {
      cwd: root,
      env: { ...process.env, NODE_ENV: 'test', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: mkdtempSync(path.join(tmpdir(), 'location-api-bulk-threads-')), ADMIN_API_KEY: ADMIN_KEY, LOG_LEVEL: 'warn', STARTER_DATA: 'false', HEXCODE_WORKERS: '1' },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    await eventually(async () => {
      try {
        return (await fetch(`${base}/health`)).status === 200 ? true : undefined;
      } catch {
        return undefined;
      }
    }, 60_000);
    const service = {
      request: (method: string, url: string, init: { key?: string; body?: unknown } = {}) =>
        fetch(`${base}${url}`, { method, headers: { ...(init.key ? { 'x-api-key': init.key } : {}), ...(init.body === undefined ? {} : { 'content-type': 'application/json' }) }, body: init.body === undefined ? undefined : JSON.stringify(init.body) }),
    };
    key = await signUp(service, 'Threaded');
    const accountId = ((await (await service.request('GET', '/v2/me', { key })).json()) as { data: { account_id: string } }).data.account_id;
    expect((await service.request('PUT', `/v2/admin/accounts/${accountId}/tier`, { key: ADMIN_KEY, body: { tier: 'enterprise' } })).status).toBe(200);
    caller = callerAt(base);
  }, 90_000);
  afterAll(async () => {
    if (!child || child.exitCode !== null) return;
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  });

  it('answers as in process, and the work ran in the thread', async () => {
    await checkSameAnswers(caller, key);
    const metrics = await (await fetch(`${base}/metrics`, { headers: { 'x-api-key': ADMIN_KEY } })).text();
    const ran = (outcome: string) => Number(new RegExp(`^thread_pool_jobs_total\\{pool="hexcode-bulk",outcome="${outcome}"\\} (\\d+)$`, 'm').exec(metrics)?.[1] ?? 0);
    // The valid request, the refusals and the lone surrogate: all in the thread, none on the event loop.
    expect(ran('thread')).toBe(BEFORE.length + 2);
    expect(ran('in_process')).toBe(0);
  }, 60_000);
});
