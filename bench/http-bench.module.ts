import { Controller, DynamicModule, Get, Module, type ModuleMetadata, type Type } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AccountsModule, ApiKeyGuard } from '../libs/accounts/src/index.js';
import { AuditModule } from '../libs/audit/src/index.js';
import { openRuntime } from '../apps/shared/runtime.js';
import { PlatformModule, Public, type Runtime } from '../libs/platform/src/index.js';

/**
 * Two trivial routes on the real HTTP stack, so the bench measures the
 * pipeline and nothing else: `public` pays for Nest, the envelope and the
 * guard's public check; `ping` also pays for key authentication and the
 * audited, group-committed access event held before the answer leaves.
 */
@Controller('v2/bench')
export class BenchController {
  @Get('ping')
  ping(): { pong: boolean } {
    return { pong: true };
  }

  @Public()
  @Get('public')
  publicPing(): { pong: boolean } {
    return { pong: true };
  }
}

/**
 * What the api process wires (apps/api/src/api.module.ts): platform, CQRS, accounts (the API-key guard) and
 * audit, with only the `contexts` a bench measures (or the bench routes, as `controllers`) on top.
 */
@Module({})
export class BenchApiModule {
  static forRoot(runtime: Runtime, contexts: NonNullable<ModuleMetadata['imports']>, controllers: Type[] = []): DynamicModule {
    return {
      module: BenchApiModule,
      imports: [PlatformModule.forRoot(runtime, { http: true }), AccountsModule, AuditModule, ...contexts],
      controllers,
      providers: [{ provide: APP_GUARD, useClass: ApiKeyGuard }],
    };
  }
}

/**
 * The service's runtime as every HTTP bench opens it: embedded adapters in
 * `dataDir`, silent, on a free loopback port, and no starter import competing
 * for the CPU while measuring; `env` adds what a bench needs (throttles, dirs).
 */
export function openBenchRuntime(dataDir: string, adminKey: string, env: Record<string, string> = {}): Promise<Runtime> {
  return openRuntime('location-api-bench', { NODE_ENV: 'test', DATA_DIR: dataDir, ADMIN_API_KEY: adminKey, LOG_LEVEL: 'silent', PORT: '0', HOST: '127.0.0.1', STARTER_DATA: 'false', ...env });
}
