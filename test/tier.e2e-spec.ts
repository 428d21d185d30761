import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Controller, Get, Module, type DynamicModule } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AccountsModule, ApiKeyGuard } from '../libs/accounts/src/index.js';
import { AuditModule } from '../libs/audit/src/index.js';
import { PlatformModule, RequiresTier, type Runtime } from '../libs/platform/src/index.js';
import { serveHttp, type RunningHttp } from '../apps/api/src/serve.js';
import { openRuntime } from '../apps/shared/runtime.js';
import { ADMIN_KEY } from './support/boot.js';

/** An endpoint of the Enterprise tier, as retail density will be (interface.md: other tiers get TIER_REQUIRED). */
@Controller('v2/test')
class EnterpriseOnlyController {
  @Get('enterprise')
  @RequiresTier('enterprise')
  enterprise() {
    return { ok: true };
  }
}

@Module({})
class TierTestModule {
  static forRoot(runtime: Runtime): DynamicModule {
    return {
      module: TierTestModule,
      imports: [PlatformModule.forRoot(runtime, { http: true }), AccountsModule, AuditModule],
      controllers: [EnterpriseOnlyController],
      providers: [{ provide: APP_GUARD, useClass: ApiKeyGuard }],
    };
  }
}

describe('tier-gated endpoints', () => {
  let served: RunningHttp;

  beforeAll(async () => {
    const runtime = await openRuntime('tier-test', {
      NODE_ENV: 'test',
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: mkdtempSync(path.join(tmpdir(), 'location-api-tier-')),
      ADMIN_API_KEY: ADMIN_KEY,
      LOG_LEVEL: 'silent',
    });
    served = await serveHttp(runtime, TierTestModule.forRoot(runtime), 'test', { signals: false });
  });
  afterAll(() => served?.close());

  const call = (method: string, url: string, key: string, body?: unknown) =>
    fetch(`${served.url}${url}`, { method, headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });

  it('answers 403 TIER_REQUIRED below the tier, and serves once the operator raises it', async () => {
    const signup = await fetch(`${served.url}/v2/self/signup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Efua', email: 'efua@example.com' }) });
    const { key } = ((await signup.json()) as { data: { key: string } }).data;
    const refused = await call('GET', '/v2/test/enterprise', key);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ success: false, error: { code: 'TIER_REQUIRED' } });

    const me = (await (await call('GET', '/v2/me', key)).json()) as { data: { account_id: string } };
    expect((await call('PUT', `/v2/admin/accounts/${me.data.account_id}/tier`, ADMIN_KEY, { tier: 'enterprise' })).status).toBe(200);
    const served2 = await call('GET', '/v2/test/enterprise', key);
    expect(served2.status).toBe(200);
    expect(served2.headers.get('x-ratelimit-limit')).toBe('100000');
    // The per-minute rates grow with the tier too (docs/adr/0060): 50 × the 600 of a free key, outside the named groups.
    expect(served2.headers.get('x-ratelimit-policy')).toBe('"quota";q=100000;w=86400, "other";q=30000;w=60');
  });
});
