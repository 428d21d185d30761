import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AllInOneModule } from '../../all-in-one/src/all-in-one.module.js';
import { serveHttp } from '../../api/src/serve.js';
import { openRuntime } from '../../shared/runtime.js';

/**
 * `ops openapi:dump FILE`: the OpenAPI document the service serves at
 * /v2/openapi.json, written with sorted keys (a stable diff), from an
 * all-in-one service booted on loopback in a throw-away data folder: the
 * source `npm run client:generate` generates the typed client from.
 */
export async function dumpOpenApi(args: string[]): Promise<number> {
  const [file] = args;
  if (!file) throw new Error('openapi:dump needs the output FILE');
  const dataDir = mkdtempSync(path.join(tmpdir(), 'location-api-openapi-'));
  try {
    const runtime = await openRuntime('location-api-openapi', { NODE_ENV: 'test', PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'silent', STARTER_DATA: 'false' });
    const running = await serveHttp(runtime, AllInOneModule.forRoot(runtime), 'all-in-one', { signals: false });
    try {
      const response = await fetch(`${running.url}/v2/openapi.json`);
      if (!response.ok) throw new Error(`GET /v2/openapi.json answered ${response.status}`);
      writeFileSync(file, `${stableJson(await response.json())}\n`);
    } finally {
      await running.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  process.stdout.write(`openapi:dump: wrote ${file}\n`);
  return 0;
}

export function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) => (item && typeof item === 'object' && !Array.isArray(item) ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => a.localeCompare(b))) : item), 2);
}
