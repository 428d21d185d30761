import { jest } from '@jest/globals';
import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { accountStream, apiKeyStream, KeyDirectory, keyIdFor, type Tier } from '../libs/accounts/src/index.js';
import { bootService, eventually, type Service } from './support/boot.js';

interface KeyRecordBody {
  id: number;
  name: string;
  email: string;
  key: string;
  key_prefix: string;
  tier: string;
  daily_limit: number;
  expires_at: string | null;
  note: string;
}

describe('keys and accounts over HTTP', () => {
  let service: Service;

  beforeAll(async () => {
    service = await bootService();
  });
  afterAll(async () => {
    await service?.close();
  });

  async function signUp(email = `user-${Math.random().toString(36).slice(2)}@example.com`): Promise<KeyRecordBody> {
    const response = await service.request('POST', '/v2/self/signup', { body: { name: 'Ama Mensah', email } });
    expect(response.status).toBe(201);
    const body = (await response.json()) as { success: true; data: KeyRecordBody };
    return body.data;
  }

  it('signs up a free key, returned once with the record fields, and mails it', async () => {
    const email = 'ama@example.com';
    const record = await signUp(email);
    expect(record).toMatchObject({ name: 'Ama Mensah', email, tier: 'free', daily_limit: 100, expires_at: null });
    expect(record.key).toMatch(/^[0-9a-f]{64}$/);
    expect(record.key_prefix).toBe(`${record.key.slice(0, 8)}…`);
    expect(Number.isInteger(record.id)).toBe(true);

    const outbox = path.join(service.dataDir, 'outbox');
    const mail = await eventually(async () => {
      try {
        const file = readdirSync(outbox).find((name) => name.endsWith('.eml'));
        return file ? readFileSync(path.join(outbox, file), 'utf8') : undefined;
      } catch {
        return undefined;
      }
    });
    expect(mail).toContain(`To: ${email}`);
    // Quoted-printable wraps long lines with soft breaks ("=" at the end of a line).
    expect(mail.replace(/=\r?\n/g, '')).toContain(record.key);
  });

  it('refuses a signup without a valid e-mail, naming the field', async () => {
    const response = await service.request('POST', '/v2/self/signup', { body: { name: 'Kofi', email: 'not-an-address' } });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ success: false, error: { code: 'INVALID_PARAM', field: 'email' } });
  });

  it('authenticates the key, shows it on /v2/me and counts usage with rate-limit headers', async () => {
    const record = await signUp();
    const me = await service.request('GET', '/v2/me', { key: record.key });
    expect(me.status).toBe(200);
    expect(me.headers.get('x-ratelimit-limit')).toBe('100');
    expect(me.headers.get('x-ratelimit-remaining')).toBe('99');
    expect(Number(me.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);
    const body = (await me.json()) as { data: Record<string, unknown> };
    expect(body.data).toMatchObject({ key_prefix: record.key_prefix, tier: 'free', daily_limit: 100, usage: { used: 1, remaining: 99 } });
    expect(String(body.data.account_id)).toMatch(/^acct_/);

    const usage = await service.request('GET', '/v2/usage', { key: record.key });
    expect(await usage.json()).toMatchObject({ data: { tier: 'free', daily_limit: 100, used: 2, remaining: 98, window: 'rolling_24h' } });
  });

  it('rotation returns a new key and kills the old one at once', async () => {
    const record = await signUp();
    const rotated = await service.request('POST', '/v2/me/rotate', { key: record.key });
    expect(rotated.status).toBe(200);
    const fresh = ((await rotated.json()) as { data: KeyRecordBody }).data;
    expect(fresh.key).not.toBe(record.key);
    const old = await service.request('GET', '/v2/me', { key: record.key });
    expect(old.status).toBe(401);
    expect(await old.json()).toMatchObject({ error: { code: 'INVALID_API_KEY' } });
    expect((await service.request('GET', '/v2/me', { key: fresh.key })).status).toBe(200);
  });

  it('two rotations racing on one key: exactly one wins, the other gets 409 and no key', async () => {
    const record = await signUp();
    const [first, second] = await Promise.all([
      service.request('POST', '/v2/me/rotate', { key: record.key }),
      service.request('POST', '/v2/me/rotate', { key: record.key }),
    ]);
    const statuses = [first.status, second.status].sort();
    expect(statuses[0]).toBe(200);
    expect([401, 409]).toContain(statuses[1]);
    expect((await service.request('GET', '/v2/me', { key: record.key })).status).toBe(401);
  });

  it('DELETE /v2/me/key revokes the calling key immediately', async () => {
    const record = await signUp();
    const deleted = await service.request('DELETE', '/v2/me/key', { key: record.key });
    expect(deleted.status).toBe(200);
    const after = await service.request('GET', '/v2/me', { key: record.key });
    expect(after.status).toBe(401);
  });

  it('120 concurrent requests on a fresh free key give exactly 100 successes and 20 RATE_LIMITED', async () => {
    const record = await signUp();
    const statuses = await Promise.all(Array.from({ length: 120 }, async () => (await service.request('GET', '/v2/usage', { key: record.key })).status));
    expect(statuses.filter((status) => status === 200)).toHaveLength(100);
    expect(statuses.filter((status) => status === 429)).toHaveLength(20);
    const limited = await service.request('GET', '/v2/usage', { key: record.key });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await limited.json()).toMatchObject({ success: false, error: { code: 'RATE_LIMITED' } });
  });

  describe('written through another api process (docs/adr/0057)', () => {
    // As another api process on the same store would: events appended to the log that this process's key
    // directory does not follow meanwhile (its follower is stopped), so only the guard's reads of the store find them.
    const append = (stream: string, type: string, data: Record<string, unknown>, expected: bigint | 'no_stream') =>
      service.runtime.backends.events.append(stream, [{ type, data, metadata: service.runtime.registry.metadataFor(type) }], expected);
    const issueElsewhere = async (accountId: string, tier: Tier) => {
      const key = randomBytes(32).toString('hex');
      const hash = createHash('sha256').update(key).digest('hex');
      const made = { key, hash, keyId: keyIdFor(hash) };
      const data = { key_id: made.keyId, key_hash: made.hash, key_prefix: `${key.slice(0, 8)}…`, kind: 'account', account_id: accountId, user_id: null, name: 'Elsewhere', email: 'elsewhere@example.com', tier, issued_at: new Date().toISOString(), expires_at: null, rotated_from: null };
      await append(apiKeyStream(made.keyId), 'ApiKeyIssued', data, 'no_stream');
      return made;
    };
    const me = async (key: string) => {
      const response = await service.request('GET', '/v2/me', { key });
      const body = response.status === 200 ? ((await response.json()) as { data: { tier: string; daily_limit: number; account_id: string } }).data : undefined;
      return { status: response.status, limit: response.headers.get('x-ratelimit-limit'), dailyLimit: body?.daily_limit, tier: body?.tier, account: body?.account_id };
    };
    /** The per-minute rate the throttle counted the request against: a keyed caller's, at its account's tier (ADR 0060). */
    const rateOf = async (key: string) => {
      const response = await service.request('GET', '/v2/usage', { key });
      expect(response.status).toBe(200);
      return Number(response.headers.get('x-ratelimit-rate-limit'));
    };

    it('serves a key issued there on its first call here, with its account tier as changed there, and refuses it once rotated there', async () => {
      const directory = service.app.get(KeyDirectory);
      await directory.follower.stop();
      try {
        const accountId = `acct_${randomBytes(10).toString('hex')}`;
        await append(accountStream(accountId), 'AccountOpened', { account_id: accountId, name: 'Elsewhere', email: 'elsewhere@example.com', tier: 'free', opened_at: new Date().toISOString() }, 'no_stream');
        const first = await issueElsewhere(accountId, 'free');
        expect(directory.byKeyHash(first.hash)).toBeUndefined();
        // Its first request here is served and counted by the throttle as the key's, not as a keyless caller's.
        const freeRate = await rateOf(first.key);
        expect(freeRate).toBeGreaterThan(0);
        expect(await me(first.key)).toEqual({ status: 200, limit: '100', dailyLimit: 100, tier: 'free', account: accountId });

        // The operator raises the tier there: the next request here has the new one, in the throttle as in the guard.
        await append(accountStream(accountId), 'AccountTierChanged', { account_id: accountId, tier: 'pro', changed_at: new Date().toISOString() }, 0n);
        expect(await rateOf(first.key)).toBeGreaterThan(freeRate);
        expect(await me(first.key)).toEqual({ status: 200, limit: '20000', dailyLimit: 20_000, tier: 'pro', account: accountId });

        // A rotation there: the old key is revoked, the new one issued.
        const second = await issueElsewhere(accountId, 'pro');
        await append(apiKeyStream(first.keyId), 'ApiKeyRevoked', { key_id: first.keyId, reason: 'rotated', revoked_at: new Date().toISOString(), replaced_by: second.keyId }, 0n);
        expect((await me(first.key)).status).toBe(401);
        expect(await me(second.key)).toEqual({ status: 200, limit: '20000', dailyLimit: 20_000, tier: 'pro', account: accountId });
      } finally {
        await directory.follower.start();
      }
    });

    it('looks for an unknown key in the store once per request: 401 after one read of its stream', async () => {
      const reads = jest.spyOn(service.runtime.backends.events, 'readStream');
      try {
        const keys = Array.from({ length: 12 }, () => randomBytes(32).toString('hex'));
        const statuses = await Promise.all(keys.map(async (key) => (await service.request('GET', '/v2/me', { key })).status));
        expect(statuses).toEqual(keys.map(() => 401));
        const keyReads = reads.mock.calls.filter(([stream]) => stream.startsWith('api_key-'));
        expect(keyReads).toHaveLength(keys.length);
        expect(new Set(keyReads.map(([stream]) => stream)).size).toBe(keys.length);
      } finally {
        reads.mockRestore();
      }
    });
  });

  it('keeps issued keys across a restart', async () => {
    const record = await signUp();
    await service.close();
    service = await bootService({ dataDir: service.dataDir });
    expect((await service.request('GET', '/v2/me', { key: record.key })).status).toBe(200);
  });
});
