import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AllInOneModule } from '../../apps/all-in-one/src/all-in-one.module.js';
import { serveHttp, type RunningHttp } from '../../apps/api/src/serve.js';
import { openRuntime } from '../../apps/shared/runtime.js';
import { servedOpenApiDocument, type Runtime } from '../../libs/platform/src/index.js';
import { checkAnswer, ContractChecker } from './contract.js';

export const ADMIN_KEY = 'test-admin-key-0123456789abcdef';

export interface Service extends RunningHttp {
  runtime: Runtime;
  dataDir: string;
  request(method: string, url: string, init?: { key?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> }): Promise<Response>;
}

/** The all-in-one service on embedded adapters in a fresh (or given) data folder, on a free port. */
export async function bootService(options: { dataDir?: string; env?: Record<string, string> } = {}): Promise<Service> {
  const dataDir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), 'location-api-e2e-'));
  const runtime = await openRuntime('location-api-test', {
    NODE_ENV: 'test',
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    ADMIN_API_KEY: ADMIN_KEY,
    LOG_LEVEL: 'silent',
    // Suites sign up many accounts from 127.0.0.1; the signup throttle has its own tests (throttles.e2e-spec.ts).
    SIGNUP_LIMIT_PER_IP_PER_HOUR: '100000',
    // Suites call routing and report endpoints from 127.0.0.1 in bursts; the burst windows under the per-minute
    // throttles (a 60 s burst turns them off) have their own tests (throttles.e2e-spec.ts).
    THROTTLE_BURST_SECONDS: '60',
    // Load shedding on event-loop delay (docs/architecture/load-and-fairness.md) is off: the service runs in the jest
    // worker, whose loop a test's spawnSync (the ops CLI, builds) holds for seconds; fair-share.e2e-spec.ts turns it on.
    OVERLOAD_EVENT_LOOP_DELAY_MS: '0',
    // Tests that need the starter pack say so (test/starter.e2e-spec.ts); importing it takes seconds.
    STARTER_DATA: 'false',
    // Required in production mode (a shared-server URL in options.env); test/setup.ts sets it.
    DATA_ENCRYPTION_KEY: process.env.DATA_ENCRYPTION_KEY,
    ...options.env,
  });
  const running = await serveHttp(runtime, AllInOneModule.forRoot(runtime), 'all-in-one', { signals: false, schemaWriters: 'checked' });
  let checker: Promise<ContractChecker> | undefined;
  // Every answer is checked against the served document (issue 28; test/support/contract.ts).
  const contract = () => (checker ??= Promise.resolve(new ContractChecker(JSON.parse(JSON.stringify(servedOpenApiDocument(running.app))) as ConstructorParameters<typeof ContractChecker>[0])));
  return {
    ...running,
    runtime,
    dataDir,
    request(method, url, init = {}) {
      const headers: Record<string, string> = { ...init.headers };
      if (init.key) headers['x-api-key'] = init.key;
      let body: string | undefined = init.rawBody;
      if (init.body !== undefined) body = JSON.stringify(init.body);
      if (body !== undefined) headers['content-type'] ??= 'application/json';
      // A request the service never answers fails its test, naming it, instead of holding the jest worker until CI's deadline.
      return fetch(`${running.url}${url}`, { method, headers, body, signal: AbortSignal.timeout(REQUEST_DEADLINE_MS) }).then(
        async (response) => checkAnswer(await contract(), method, url, response),
        (error: unknown) => {
          if (error instanceof DOMException && error.name === 'TimeoutError') throw new Error(`${method} ${url} had no answer within ${REQUEST_DEADLINE_MS / 1000} s`);
          throw error;
        },
      );
    },
  };
}

/** Longer than any answer the suites wait for on a loaded 2-core machine (10,000-loan bulks included). */
const REQUEST_DEADLINE_MS = 180_000;

/** Polls `check` until it answers a value or the deadline passes. */
export async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not met before the deadline');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
