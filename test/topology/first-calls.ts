/**
 * Keys read-your-writes across api processes (docs/adr/0057): rounds of
 * writes through one api, each followed at once by the key's first request on
 * the other one. Shared by the production topology test (shared servers) and
 * the two-api test on the embedded adapters.
 */

export interface Api {
  name: string;
  url: string;
}

export interface FirstCalls {
  /** Per check, how many rounds the other api honoured the write on its first call. */
  honoured: { signup: number; rotated: number; oldKeyRefused: number; tier: number; revoked: number };
  /** How many rounds each check ran (revocation: every round but the last, whose key stays live). */
  rounds: { signup: number; rotated: number; oldKeyRefused: number; tier: number; revoked: number };
  /** What the other api answered where it did not honour the write. */
  misses: string[];
  /** The last round's key, live, at the `pro` tier, and its account. */
  key: string;
  accountId: string;
}

interface Answer {
  status: number;
  data?: Record<string, unknown>;
}

async function send(api: Api, method: string, path: string, init: { key?: string; body?: unknown } = {}): Promise<Answer> {
  const response = await fetch(`${api.url}${path}`, {
    method,
    headers: { ...(init.key ? { 'x-api-key': init.key } : {}), ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const body = (await response.json().catch(() => ({}))) as { data?: Record<string, unknown> };
  return { status: response.status, data: body.data };
}

async function written(api: Api, method: string, path: string, init: { key?: string; body?: unknown }, expected: number): Promise<Record<string, unknown>> {
  const answer = await send(api, method, path, init);
  if (answer.status !== expected) throw new Error(`${method} ${path} on ${api.name}: ${answer.status}, not ${expected}`);
  return answer.data ?? {};
}

/**
 * Each round, alternating which api takes the writes: a signup through one
 * api, then the new key's first request on the other; a rotation through that
 * other one, then the new key's and the old key's first requests on the first;
 * a tier change through the first, then the key's next request on the other;
 * and (every round but the last) a key deletion through the other, then the
 * key's next request on the first.
 */
export async function firstCallsOnTheOtherApi(apis: readonly [Api, Api], rounds: number, options: { adminKey: string; run: string }): Promise<FirstCalls> {
  const honoured = { signup: 0, rotated: 0, oldKeyRefused: 0, tier: 0, revoked: 0 };
  const ran = { signup: 0, rotated: 0, oldKeyRefused: 0, tier: 0, revoked: 0 };
  const misses: string[] = [];
  const check = (what: keyof typeof honoured, api: Api, answer: Answer, ok: boolean) => {
    ran[what]++;
    if (ok) honoured[what]++;
    else misses.push(`${what} on ${api.name}: ${answer.status} ${JSON.stringify(answer.data ?? {}).slice(0, 200)}`);
  };
  let last = { key: '', accountId: '' };
  for (let round = 0; round < rounds; round++) {
    const [here, there] = round % 2 === 0 ? [apis[0], apis[1]] : [apis[1], apis[0]];
    const signup = await written(here, 'POST', '/v2/self/signup', { body: { name: 'First Call', email: `first-call-${round}-${options.run}@example.com` } }, 201);
    const seen = await send(there, 'GET', '/v2/me', { key: String(signup.key) });
    check('signup', there, seen, seen.status === 200);
    const accountId = String(seen.data?.account_id ?? (await written(here, 'GET', '/v2/me', { key: String(signup.key) }, 200)).account_id);

    const rotated = await written(there, 'POST', '/v2/me/rotate', { key: String(signup.key) }, 200);
    const fresh = await send(here, 'GET', '/v2/me', { key: String(rotated.key) });
    check('rotated', here, fresh, fresh.status === 200);
    const old = await send(here, 'GET', '/v2/me', { key: String(signup.key) });
    check('oldKeyRefused', here, old, old.status === 401);

    await written(here, 'PUT', `/v2/admin/accounts/${accountId}/tier`, { key: options.adminKey, body: { tier: 'pro' } }, 200);
    const tiered = await send(there, 'GET', '/v2/me', { key: String(rotated.key) });
    check('tier', there, tiered, tiered.status === 200 && tiered.data?.tier === 'pro');

    if (round < rounds - 1) {
      await written(there, 'DELETE', '/v2/me/key', { key: String(rotated.key) }, 200);
      const gone = await send(here, 'GET', '/v2/me', { key: String(rotated.key) });
      check('revoked', here, gone, gone.status === 401);
    }
    last = { key: String(rotated.key), accountId };
  }
  return { honoured, rounds: ran, misses, ...last };
}

/** One line for the test log: `signup 10/10, …`. */
export function describeFirstCalls(calls: FirstCalls): string {
  return (Object.keys(calls.honoured) as Array<keyof FirstCalls['honoured']>).map((what) => `${what} ${calls.honoured[what]}/${calls.rounds[what]}`).join(', ');
}
