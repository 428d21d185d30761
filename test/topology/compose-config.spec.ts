import { readFileSync } from 'node:fs';
import path from 'node:path';
import { isProductionMode, loadConfig, type Config } from '../../libs/platform/src/index.js';
import { compose, composeText, interpolate, root } from './compose.js';

/**
 * docker-compose.yml cannot run here (no Docker), so its environment is
 * checked against the configuration module instead (issue 27): every variable
 * the app services set is one `loadConfig` reads, the set loads without a
 * configuration error in production mode, the required secrets are required
 * by compose itself, each `${…}` is documented in .env.example, and the health
 * checks ask the ports the services listen on.
 */
const envExample = readFileSync(path.join(root, '.env.example'), 'utf8');
const APP_SERVICES = ['api', 'worker'];

/** Every variable name loadConfig asks for, found by handing it an environment that records reads. */
function variablesReadByConfig(base: Record<string, string> = {}): Set<string> {
  const read = new Set<string>();
  const env = new Proxy(base, {
    get(target, name) {
      if (typeof name === 'string') read.add(name);
      return target[name as string];
    },
  });
  loadConfig(env);
  return read;
}

const SAMPLES = { DATA_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'), ADMIN_API_KEY: 'admin-sample' };

describe('docker-compose.yml against the configuration module', () => {
  const known = variablesReadByConfig();

  it.each(APP_SERVICES)('%s: sets only variables the configuration module reads, and they load in production mode', (service) => {
    const environment = compose.services[service]!.environment!;
    const unknown = Object.keys(environment).filter((name) => !known.has(name));
    expect(unknown).toEqual([]);
    const env = Object.fromEntries(Object.entries(environment).map(([name, value]) => [name, interpolate(value, SAMPLES)]));
    let config: Config | undefined;
    expect(() => (config = loadConfig(env))).not.toThrow();
    expect(isProductionMode(config!, service)).toBe(true);
    expect(config!.dataEncryptionKey).toBe(SAMPLES.DATA_ENCRYPTION_KEY);
    expect(config!.adminApiKey).toBe(SAMPLES.ADMIN_API_KEY);
  });

  it.each(APP_SERVICES)('%s: requires DATA_ENCRYPTION_KEY and ADMIN_API_KEY from the environment and mounts the shared DATA_DIR volume', (service) => {
    const environment = compose.services[service]!.environment!;
    expect(String(environment.DATA_ENCRYPTION_KEY)).toMatch(/^\$\{DATA_ENCRYPTION_KEY:\?[^}]+\}$/);
    expect(String(environment.ADMIN_API_KEY)).toMatch(/^\$\{ADMIN_API_KEY:\?[^}]+\}$/);
    expect(compose.services[service]!.volumes).toContain(`app-data:${environment.DATA_DIR}`);
  });

  it('every ${…} in the compose file is a variable of .env.example, and every one there is read by the configuration module', () => {
    const interpolated = new Set([...composeText.matchAll(/\$\{([A-Z0-9_]+)/g)].map((match) => match[1]!));
    const example = new Set([...envExample.matchAll(/^([A-Z0-9_]+)=/gm)].map((match) => match[1]!));
    expect([...interpolated].filter((name) => !example.has(name))).toEqual([]);
    expect([...example].filter((name) => !known.has(name))).toEqual([]);
  });

  it('health checks ask /health/ready on the port each app service listens on', () => {
    const api = compose.services.api!;
    const worker = compose.services.worker!;
    expect(api.healthcheck!.test.join(' ')).toContain(`http://127.0.0.1:${api.environment!.PORT}/health/ready`);
    expect(worker.healthcheck!.test.join(' ')).toContain(`http://127.0.0.1:${worker.environment!.HEALTH_PORT}/health/ready`);
    expect(api.command).toEqual(['node', 'dist/apps/api/src/main.js']);
    expect(worker.command).toEqual(['node', 'dist/apps/worker/src/main.js']);
  });

  it('fails on a variable the configuration module does not read (the check can fail)', () => {
    expect(known.has('DATA_ENCRYPTION_KEY')).toBe(true);
    expect(known.has('HEALTH_PORT')).toBe(true);
    expect(known.has('DATA_ENCRYPTON_KEY')).toBe(false);
  });
});
