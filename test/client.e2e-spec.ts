import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { reverseControllerReverse, signUpControllerCreate } from '@location-api/client';
import { createClient } from '@location-api/client/client';
import { stableJson } from '../apps/ops/src/openapi-dump.js';
import { bootService, type Service } from './support/boot.js';

/**
 * The typed client in packages/client (README, "Typed client"): generated
 * from the served OpenAPI document by `npm run client:generate`. These tests
 * fail when it is stale — the document the service serves differs from the
 * committed openapi.json, or the generator no longer produces the committed
 * sources from it — and use it against a running service.
 */
const root = path.resolve(import.meta.dirname, '..');
const clientDir = path.join(root, 'packages/client');

function files(dir: string, base = dir): Map<string, string> {
  const found = new Map<string, string>();
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) for (const [key, value] of files(full, base)) found.set(key, value);
    else found.set(path.relative(base, full), readFileSync(full, 'utf8'));
  }
  return found;
}

describe('the typed client', () => {
  let service: Service;
  beforeAll(async () => {
    service = await bootService();
  });
  afterAll(async () => {
    await service?.close();
  });

  it('was generated from the OpenAPI document the service serves now (else: npm run client:generate)', async () => {
    const served = stableJson(await (await service.request('GET', '/v2/openapi.json')).json());
    expect(served).toBe(readFileSync(path.join(clientDir, 'openapi.json'), 'utf8').trimEnd());
  });

  it('matches what the generator makes of that document (else: npm run client:generate)', () => {
    const out = mkdtempSync(path.join(tmpdir(), 'client-gen-'));
    const generator = path.join(root, 'node_modules/@hey-api/openapi-ts/bin/run.js');
    const run = spawnSync(process.execPath, [generator, '-i', path.join(clientDir, 'openapi.json'), '-o', out, '-c', '@hey-api/client-fetch', '-s', '--no-log-file'], { cwd: root, encoding: 'utf8', timeout: 60_000 });
    expect(run.status).toBe(0);
    const generated = files(out);
    const committed = files(path.join(clientDir, 'src'));
    expect([...committed.keys()].sort()).toEqual([...generated.keys()].sort());
    for (const [name, text] of generated) expect([name, committed.get(name)]).toEqual([name, text]);
  });

  it('signs up and turns a coordinate into a hex code against the running service', async () => {
    const client = createClient({ baseUrl: service.url });
    const signUp = await signUpControllerCreate({ client, body: { name: 'Typed', email: `typed-${Date.now()}@example.com` } });
    expect(signUp.response?.status).toBe(201);
    const key = (signUp.data as { data: { key: string } }).data.key;
    const reverse = await reverseControllerReverse({ client, auth: () => key, query: { lat: 5.6037, lng: -0.187 } });
    expect(reverse.response?.status).toBe(200);
    // The field is `code` (it read `hex_code`, which reverse never answered: undefined on both sides passed).
    // test/client-types.spec.ts checks the generated types themselves.
    const answer = (reverse.data as unknown as { data: { code: string } }).data;
    const direct = await (await service.request('GET', '/v2/reverse?lat=5.6037&lng=-0.187', { key })).json();
    expect(answer.code).toEqual(expect.any(String));
    expect(answer.code).toBe((direct as { data: { code: string } }).data.code);
    // Without the key the client gets the envelope's 401, typed as an error.
    const refused = await reverseControllerReverse({ client, query: { lat: 5.6037, lng: -0.187 } });
    expect(refused.response?.status).toBe(401);
  });
});
