import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from 'jose';
import { bootService } from './support/boot.js';
import { data, json, signUp } from './support/http.js';

/** `npm run ops -- signing-keys:rotate` beside a running service on the same data folder (decisions.md, "Operator interface"). */
const root = path.resolve(import.meta.dirname, '..');

describe('signing-keys:rotate from the command line', () => {
  it('rotates beside a live service: within the key ring’s lag it signs with the new key, and its JWKS still verifies the old certificate', async () => {
    const service = await bootService();
    try {
      const key = await signUp(service, 'Kweku');
      const body = { customer_id: 'c-ops', address: '6Q3-HQK-Q4ZA', lat: 5.6037, lng: -0.187, accuracy_m: 10 };
      const before = await data<{ certificate: string; kid: string }>(await service.request('POST', '/v2/verify/proximity', { key, body }));

      const { stdout } = await promisify(execFile)(process.execPath, ['scripts/start.mjs', 'ops', 'signing-keys:rotate'], {
        cwd: root,
        env: { ...process.env, NODE_ENV: 'test', DATA_DIR: service.dataDir, LOG_LEVEL: 'silent' },
        timeout: 120_000,
      });
      const rotated = JSON.parse(stdout) as { active_kid: string; retired_kid: string; keys: Array<{ kid: string; status: string }> };
      expect(rotated.retired_kid).toBe(before.kid);
      expect(stdout).not.toMatch(/sealed|private/i);

      // The service's key ring follows the log: within its lag the next certificate carries the new kid.
      let after = before;
      for (let attempt = 0; attempt < 50 && after.kid === before.kid; attempt++) {
        if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 50));
        after = await data<{ certificate: string; kid: string }>(await service.request('POST', '/v2/verify/proximity', { key, body }));
      }
      expect(after.kid).toBe(rotated.active_kid);
      const jwks = await json<JSONWebKeySet>(await service.request('GET', '/v2/.well-known/jwks.json'));
      for (const certificate of [before.certificate, after.certificate]) {
        await expect(jwtVerify(certificate, createLocalJWKSet(jwks), { typ: 'proximity-certificate+jwt' })).resolves.toBeDefined();
      }
    } finally {
      await service.close();
    }
  }, 150_000);
});
