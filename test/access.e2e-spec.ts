import { jest } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Controller, Get, Module, Req, type DynamicModule } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { AccountsModule, ApiKeyGuard, KeyDirectory } from '../libs/accounts/src/index.js';
import { AuditModule } from '../libs/audit/src/index.js';
import { OptionalKey, PlatformModule, type Runtime } from '../libs/platform/src/index.js';
import { serveHttp, type RunningHttp } from '../apps/api/src/serve.js';
import { openRuntime } from '../apps/shared/runtime.js';
import { ADMIN_KEY, bootService, eventually, type Service } from './support/boot.js';

interface Issued {
  key: string;
  key_prefix: string;
  tier: string;
  daily_limit: number;
}

describe('access rules and the operator interface over HTTP', () => {
  let service: Service;

  beforeAll(async () => {
    service = await bootService();
  });
  afterAll(async () => {
    await service?.close();
  });

  const data = async <T>(response: Response): Promise<T> => ((await response.json()) as { data: T }).data;

  async function signUp(): Promise<{ key: string; accountId: string }> {
    const issued = await data<Issued>(await service.request('POST', '/v2/self/signup', { body: { name: 'Esi', email: `esi-${Math.random().toString(36).slice(2)}@example.com` } }));
    const me = await data<{ account_id: string }>(await service.request('GET', '/v2/me', { key: issued.key }));
    return { key: issued.key, accountId: me.account_id };
  }

  it('issues legacy keys that work but are refused on account-scoped endpoints', async () => {
    const response = await service.request('POST', '/v2/admin/keys', { key: ADMIN_KEY, body: { name: 'old integration', tier: 'pro' } });
    expect(response.status).toBe(201);
    const legacy = await data<Issued>(response);
    expect(legacy).toMatchObject({ tier: 'pro', daily_limit: 20_000 });
    const me = await service.request('GET', '/v2/me', { key: legacy.key });
    expect(me.status).toBe(200);
    expect(await data(me)).toMatchObject({ account_id: null, tier: 'pro' });
    const banking = await service.request('GET', '/v2/banking/audit-log', { key: legacy.key });
    expect(banking.status).toBe(403);
    expect(await banking.json()).toMatchObject({ error: { code: 'ACCOUNT_KEY_REQUIRED' } });
  });

  it('keeps admin endpoints to the operator key', async () => {
    const { key, accountId } = await signUp();
    const refused = await service.request('PUT', `/v2/admin/accounts/${accountId}/tier`, { key, body: { tier: 'enterprise' } });
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ error: { code: 'INVALID_API_KEY' } });
    const unknown = await service.request('PUT', '/v2/admin/accounts/acct_doesnotexist/tier', { key: ADMIN_KEY, body: { tier: 'pro' } });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: { code: 'ACCOUNT_NOT_FOUND' } });
    const badTier = await service.request('PUT', `/v2/admin/accounts/${accountId}/tier`, { key: ADMIN_KEY, body: { tier: 'platinum' } });
    expect(badTier.status).toBe(400);
    expect(await badTier.json()).toMatchObject({ error: { code: 'INVALID_PARAM', field: 'tier' } });
  });

  it('changes the tier and with it the daily limit at once', async () => {
    const { key, accountId } = await signUp();
    const changed = await service.request('PUT', `/v2/admin/accounts/${accountId}/tier`, { key: ADMIN_KEY, body: { tier: 'basic' } });
    expect(changed.status).toBe(200);
    expect(await data(changed)).toMatchObject({ tier: 'basic', daily_limit: 5000 });
    const me = await service.request('GET', '/v2/me', { key });
    expect(me.headers.get('x-ratelimit-limit')).toBe('5000');
    expect(await data(me)).toMatchObject({ tier: 'basic', daily_limit: 5000 });
  });

  it('answers 10 concurrent identical tier changes all with 200 (issue #10, item 10)', async () => {
    const { key, accountId } = await signUp();
    const responses = await Promise.all(Array.from({ length: 10 }, () => service.request('PUT', `/v2/admin/accounts/${accountId}/tier`, { key: ADMIN_KEY, body: { tier: 'pro' } })));
    expect(responses.map((response) => response.status)).toEqual(Array(10).fill(200));
    for (const response of responses) expect(await data(response)).toMatchObject({ account_id: accountId, tier: 'pro', daily_limit: 20_000 });
    expect((await service.request('GET', '/v2/me', { key })).headers.get('x-ratelimit-limit')).toBe('20000');
  });

  it('opens the banking audit log only to provisioned accounts, from allowed IPs, with their own history only', async () => {
    const { key, accountId } = await signUp();
    const other = await signUp();
    const before = await service.request('GET', '/v2/banking/audit-log', { key });
    expect(before.status).toBe(403);
    expect(await before.json()).toMatchObject({ error: { code: 'BANKING_ACCESS_REQUIRED' } });

    expect((await service.request('POST', `/v2/admin/accounts/${accountId}/banking`, { key: ADMIN_KEY, body: { enabled: true } })).status).toBe(200);
    await service.request('GET', '/v2/me', { key, headers: { 'x-request-id': 'mine-1' } });
    await service.request('GET', '/v2/me', { key: other.key, headers: { 'x-request-id': 'theirs-1' } });
    const items = await eventually(async () => {
      const response = await service.request('GET', '/v2/banking/audit-log', { key });
      if (response.status !== 200) return undefined;
      const page = await data<{ items: Array<{ request_id: string; account_id: string; client_ip: string }> }>(response);
      return page.items.some((item) => item.request_id === 'mine-1') ? page.items : undefined;
    });
    expect(items.every((item) => item.account_id === accountId)).toBe(true);
    expect(items.map((item) => item.request_id)).not.toContain('theirs-1');

    const bad = await service.request('PUT', `/v2/admin/accounts/${accountId}/ip-allowlist`, { key: ADMIN_KEY, body: { entries: ['10.0.0.0/8', 'not-an-ip'] } });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: { code: 'INVALID_PARAM', field: 'entries[1]' } });

    await service.request('PUT', `/v2/admin/accounts/${accountId}/ip-allowlist`, { key: ADMIN_KEY, body: { entries: ['203.0.113.7', '2001:db8::/32'] } });
    const outside = await service.request('GET', '/v2/banking/audit-log', { key });
    expect(outside.status).toBe(403);
    expect(await outside.json()).toMatchObject({ error: { code: 'IP_NOT_ALLOWED' } });

    await service.request('PUT', `/v2/admin/accounts/${accountId}/ip-allowlist`, { key: ADMIN_KEY, body: { entries: ['127.0.0.0/8'] } });
    expect((await service.request('GET', '/v2/banking/audit-log', { key })).status).toBe(200);

    const removed = await service.request('PUT', `/v2/admin/accounts/${accountId}/ip-allowlist`, { key: ADMIN_KEY, body: { entries: [] } });
    expect(await data(removed)).toMatchObject({ ip_allowlist: [], banking: true });
  });
});

describe('client IP behind a proxy', () => {
  it('takes the client IP from X-Forwarded-For for the allowlist only with TRUST_PROXY', async () => {
    for (const trustProxy of [true, false]) {
      const service = await bootService({ env: trustProxy ? { TRUST_PROXY: 'true' } : {} });
      try {
        const signup = await service.request('POST', '/v2/self/signup', { body: { name: 'Nii', email: 'nii@example.com' } });
        const key = ((await signup.json()) as { data: { key: string } }).data.key;
        const me = (await (await service.request('GET', '/v2/me', { key })).json()) as { data: { account_id: string } };
        await service.request('POST', `/v2/admin/accounts/${me.data.account_id}/banking`, { key: ADMIN_KEY, body: { enabled: true } });
        await service.request('PUT', `/v2/admin/accounts/${me.data.account_id}/ip-allowlist`, { key: ADMIN_KEY, body: { entries: ['203.0.113.0/24'] } });
        const response = await service.request('GET', '/v2/banking/audit-log', { key, headers: { 'x-forwarded-for': '203.0.113.7' } });
        expect(response.status).toBe(trustProxy ? 200 : 403);
      } finally {
        await service.close();
      }
    }
  });
});

describe('audit log pagination', () => {
  it('walks every entry exactly once with next_cursor, newest first, filtered by time', async () => {
    const service = await bootService();
    try {
      const since = new Date().toISOString();
      for (let index = 0; index < 7; index++) {
        await service.request('GET', '/v2/admin/audit?limit=1', { key: ADMIN_KEY, headers: { 'x-request-id': `page-${index}` } });
      }
      await eventually(async () => {
        const response = await service.request('GET', `/v2/admin/audit?account_id=platform&from=${encodeURIComponent(since)}&limit=500`, { key: ADMIN_KEY });
        const page = ((await response.json()) as { data: { items: Array<{ request_id: string }> } }).data;
        return page.items.filter((item) => item.request_id.startsWith('page-')).length === 7 ? true : undefined;
      });
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const query: string = `/v2/admin/audit?account_id=platform&from=${encodeURIComponent(since)}&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
        const page = ((await (await service.request('GET', query, { key: ADMIN_KEY })).json()) as { data: { items: Array<{ request_id: string; at: string }>; next_cursor: string | null } }).data;
        expect(page.items.length).toBeLessThanOrEqual(2);
        seen.push(...page.items.map((item) => item.request_id));
        cursor = page.next_cursor;
        pages++;
      } while (cursor && pages < 20);
      const ours = seen.filter((id) => id.startsWith('page-'));
      expect(ours).toEqual(['page-6', 'page-5', 'page-4', 'page-3', 'page-2', 'page-1', 'page-0']);
      expect(new Set(seen).size).toBe(seen.length);
      const badCursor = await service.request('GET', '/v2/admin/audit?cursor=garbage', { key: ADMIN_KEY });
      expect(badCursor.status).toBe(400);
    } finally {
      await service.close();
    }
  });
});

/** A public endpoint that takes an optional key, as POST /v2/landmarks/{slug}/report does: who the guard says is calling. */
@Controller('v2/test/optional')
class OptionalKeyController {
  @Get()
  @OptionalKey()
  whoIsCalling(@Req() request: FastifyRequest) {
    return { kind: request.principal?.kind ?? null, account_id: request.principal?.account_id ?? null };
  }
}

@Module({})
class OptionalKeyTestModule {
  static forRoot(runtime: Runtime): DynamicModule {
    return {
      module: OptionalKeyTestModule,
      imports: [PlatformModule.forRoot(runtime, { http: true }), AccountsModule, AuditModule],
      controllers: [OptionalKeyController],
      providers: [{ provide: APP_GUARD, useClass: ApiKeyGuard }],
    };
  }
}

describe('the optional-key access level', () => {
  let served: RunningHttp;
  let runtime: Runtime;

  beforeAll(async () => {
    runtime = await openRuntime('optional-key-test', {
      NODE_ENV: 'test',
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: mkdtempSync(path.join(tmpdir(), 'location-api-optional-key-')),
      ADMIN_API_KEY: ADMIN_KEY,
      LOG_LEVEL: 'silent',
      BCRYPT_COST: '4',
    });
    served = await serveHttp(runtime, OptionalKeyTestModule.forRoot(runtime), 'test', { signals: false });
  });
  afterAll(() => served?.close());

  const call = async (method: string, url: string, key?: string, body?: unknown) => {
    const response = await fetch(`${served.url}${url}`, {
      method,
      headers: { ...(key ? { 'x-api-key': key } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, data: ((await response.json()) as { data: Record<string, unknown> }).data };
  };
  const caller = (key?: string) => call('GET', '/v2/test/optional', key);
  const signUp = async () => {
    const email = `opt-${Math.random().toString(36).slice(2)}@example.com`;
    const { data: issued } = await call('POST', '/v2/self/signup', undefined, { name: 'Adwoa', email });
    const { data: me } = await call('GET', '/v2/me', String(issued.key));
    return { key: String(issued.key), email, accountId: String(me.account_id) };
  };

  it('answers without a key, and with a key that is not one (ignored, not refused)', async () => {
    expect(await caller()).toEqual({ status: 200, data: { kind: null, account_id: null } });
    expect(await caller('f'.repeat(64))).toEqual({ status: 200, data: { kind: null, account_id: null } });
    expect(await caller('x'.repeat(300))).toEqual({ status: 200, data: { kind: null, account_id: null } });
  });

  it('names the account of a live key, without counting it against the quota', async () => {
    const { key, accountId } = await signUp();
    expect(await caller(key)).toEqual({ status: 200, data: { kind: 'key', account_id: accountId } });
    expect(await caller(key)).toEqual({ status: 200, data: { kind: 'key', account_id: accountId } });
    // Signup's own /v2/me was the one counted request; this one makes two.
    expect((await call('GET', '/v2/usage', key)).data).toMatchObject({ used: 2 });
  });

  it('names the operator for the admin key', async () => {
    expect(await caller(ADMIN_KEY)).toEqual({ status: 200, data: { kind: 'admin', account_id: null } });
  });

  it('ignores a revoked key', async () => {
    const { key } = await signUp();
    expect((await call('DELETE', '/v2/me/key', key)).status).toBe(200);
    expect(await caller(key)).toEqual({ status: 200, data: { kind: null, account_id: null } });
  });

  it('ignores an expired personal token (the hand-read key in landmark reports skipped this check)', async () => {
    const { key, email, accountId } = await signUp();
    expect((await call('POST', '/v2/me/password', key, { password: 'kelewele at midnight' })).status).toBe(200);
    const { data: session } = await call('POST', '/v2/auth/login', key, { email, password: 'kelewele at midnight' });
    const token = String(session.token);
    expect(await caller(token)).toEqual({ status: 200, data: { kind: 'user', account_id: accountId } });
    const realNow = runtime.clock.now.bind(runtime.clock);
    const spy = jest.spyOn(runtime.clock, 'now').mockImplementation(() => new Date(realNow().getTime() + 31 * 86_400_000));
    try {
      expect((await call('GET', '/v2/me', token)).status).toBe(401);
      expect(await caller(token)).toEqual({ status: 200, data: { kind: null, account_id: null } });
    } finally {
      spy.mockRestore();
    }
  });

  it('serves a live key its directory is current for without reading the key\'s stream, and reads it once the store holds more (ADR 0028)', async () => {
    const { key } = await signUp();
    const directory = served.app.get(KeyDirectory);
    const record = directory.byKeyHash(createHash('sha256').update(key).digest('hex'))!;
    const stream = `api_key-${record.key_id}`;
    const reads = jest.spyOn(runtime.backends.events, 'readStream');
    try {
      expect((await call('GET', '/v2/me', key)).status).toBe(200);
      expect(reads.mock.calls.filter(([name]) => name === stream)).toHaveLength(0);
      // Another instance revokes it: this directory does not follow the log meanwhile, the store's revision moves on.
      await directory.follower.stop();
      await runtime.backends.events.append(
        stream,
        [{ type: 'ApiKeyRevoked', data: { key_id: record.key_id, reason: 'deleted', revoked_at: new Date().toISOString(), replaced_by: null }, metadata: { schema_version: 1 } }],
        0n,
      );
      expect((await call('GET', '/v2/me', key)).status).toBe(401);
      expect(reads.mock.calls.filter(([name]) => name === stream).length).toBeGreaterThan(0);
    } finally {
      reads.mockRestore();
      await directory.follower.start();
    }
  });

  it('ignores a key revoked on the log before this instance\'s key directory has heard of it (another instance revoked it)', async () => {
    const { key } = await signUp();
    const directory = served.app.get(KeyDirectory);
    const record = directory.byKeyHash(createHash('sha256').update(key).digest('hex'))!;
    // As if another api instance revoked it: this instance's directory does not follow the log meanwhile.
    await directory.follower.stop();
    await runtime.backends.events.append(
      `api_key-${record.key_id}`,
      [{ type: 'ApiKeyRevoked', data: { key_id: record.key_id, reason: 'deleted', revoked_at: new Date().toISOString(), replaced_by: null }, metadata: { schema_version: 1 } }],
      0n,
    );
    expect(directory.byKeyHash(record.key_hash)).toBeDefined();
    expect(await caller(key)).toEqual({ status: 200, data: { kind: null, account_id: null } });
    expect((await call('GET', '/v2/me', key)).status).toBe(401);
  });
});

/**
 * In Node 20 one AsyncLocalStorage run (or any async hook) turns on promise hooks for every promise of the
 * process, a few per cent of each request's CPU (ADR 0028). Jest turns them on itself, so the service runs
 * from dist/ in a child process: without promise hooks a promise reaction runs with async id 0.
 */
describe('promise hooks', () => {
  it('stay off in a service that has served keyed requests and run its log followers', () => {
    const script = `
      import 'reflect-metadata';
      import { executionAsyncId } from 'node:async_hooks';
      import { mkdtempSync } from 'node:fs';
      import { tmpdir } from 'node:os';
      import path from 'node:path';
      const { AllInOneModule } = await import(path.resolve('dist/apps/all-in-one/src/all-in-one.module.js'));
      const { serveHttp } = await import(path.resolve('dist/apps/api/src/serve.js'));
      const { openRuntime } = await import(path.resolve('dist/apps/shared/runtime.js'));
      const env = { NODE_ENV: 'test', PORT: '0', HOST: '127.0.0.1', DATA_DIR: mkdtempSync(path.join(tmpdir(), 'location-api-hooks-')), ADMIN_API_KEY: ${JSON.stringify(ADMIN_KEY)}, LOG_LEVEL: 'silent', STARTER_DATA: 'false' };
      const runtime = await openRuntime('location-api-test', env);
      const running = await serveHttp(runtime, AllInOneModule.forRoot(runtime), 'all-in-one', { signals: false });
      const issued = await fetch(running.url + '/v2/admin/keys', { method: 'POST', headers: { 'x-api-key': env.ADMIN_API_KEY, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'hooks', tier: 'free' }) });
      const { key } = (await issued.json()).data;
      const reversed = await fetch(running.url + '/v2/reverse?lat=5.6037&lng=-0.187', { headers: { 'x-api-key': key } });
      const { code } = (await reversed.json()).data;
      const looked = await fetch(running.url + '/v2/lookup?address=' + code, { headers: { 'x-api-key': key } });
      const statuses = [issued.status, reversed.status, looked.status];
      // The key directory and the audit followers have handled the new events by now.
      await new Promise((resolve) => setTimeout(resolve, 300));
      await null;
      const asyncId = executionAsyncId();
      await running.close();
      process.stdout.write(JSON.stringify({ statuses, asyncId }) + '\\n');
      process.exit(0);
    `;
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: path.resolve(import.meta.dirname, '..'), encoding: 'utf8', timeout: 60_000 });
    expect(child.stderr).toBe('');
    const outcome = JSON.parse(child.stdout.trim().split('\n').pop()!) as { statuses: number[]; asyncId: number };
    expect(outcome.statuses).toEqual([201, 200, 200]);
    expect(outcome.asyncId).toBe(0);
  });
});
