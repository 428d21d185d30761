import { jest } from '@jest/globals';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { PositionSealing, positionStream } from '../libs/locator/src/index.js';
import { StreamNotFoundError } from '../libs/platform/src/index.js';
import { bootService, type Service } from './support/boot.js';
import { data, json } from './support/http.js';

/**
 * The partner locator over HTTP (issue #18; interface.md, "Partner locator"):
 * personal tokens only, single-use codes with no oracle, several pairings each
 * revocable and expiring on its own (expiry checked with a moved clock), and
 * erasure by crypto-shredding.
 */
const PASSWORD = 'kelewele at midnight';

interface Envelope<T = Record<string, unknown>> {
  success: boolean;
  data: T;
  error: { code: string; message: string; field?: string; details?: Record<string, unknown>; request_id: string };
}
interface Person {
  name: string;
  key: string;
  token: string;
  account: string;
}
interface Minted {
  share_id: string;
  code: string;
  expires_at: string;
  ttl_s: number;
  share_for_s: number | null;
}

describe('partner locator over HTTP', () => {
  let service: Service;

  beforeAll(async () => {
    service = await bootService({ env: { BCRYPT_COST: '4' } });
  });
  afterAll(async () => {
    await service?.close();
  });

  async function call<T = Record<string, unknown>>(method: string, url: string, key: string, body?: unknown): Promise<{ status: number; body: Envelope<T>; headers: Headers }> {
    const response = await service.request(method, url, { key, body });
    return { status: response.status, body: (await response.json()) as Envelope<T>, headers: response.headers };
  }

  /** Signs up, attaches a password and signs in: a person with a personal token. */
  async function person(name: string): Promise<Person> {
    const email = `${name.toLowerCase()}-${Math.random().toString(36).slice(2)}@example.com`;
    const { key } = await data<{ key: string }>(await service.request('POST', '/v2/self/signup', { body: { name, email } }));
    expect((await service.request('POST', '/v2/me/password', { key, body: { password: PASSWORD } })).status).toBe(200);
    const session = await data<{ token: string; account_id: string }>(await service.request('POST', '/v2/auth/login', { key, body: { email, password: PASSWORD } }));
    return { name, key, token: session.token, account: session.account_id };
  }

  const mint = async (owner: Person, body: Record<string, unknown> = {}) => {
    const answer = await call<Minted>('POST', '/v2/locator/share-token', owner.token, body);
    expect(answer.status).toBe(201);
    return answer.body.data;
  };
  const redeem = (viewer: Person, code: string) => call<{ pairing_id: string; target_id: string; target_name: string; expires_at: string | null }>('POST', '/v2/locator/redeem', viewer.token, { code });
  const locate = (viewer: Person, target: string) => call<{ position: { lat: number; lng: number; age_s: number; accuracy_m: number | null } | null; pairing_id: string | null }>('GET', `/v2/locator/${target}/location`, viewer.token);
  const checkIn = (owner: Person, body: Record<string, unknown>) => call('POST', '/v2/locator/checkin', owner.token, body);
  const withClockAhead = async <T>(seconds: number, run: () => Promise<T>): Promise<T> => {
    const realNow = service.runtime.clock.now.bind(service.runtime.clock);
    const spy = jest.spyOn(service.runtime.clock, 'now').mockImplementation(() => new Date(realNow().getTime() + seconds * 1000));
    try {
      return await run();
    } finally {
      spy.mockRestore();
    }
  };

  it('acts only for a signed-in person: account keys get PERSONAL_TOKEN_REQUIRED, no key 401', async () => {
    const ama = await person('Ama');
    for (const [method, url, body] of [
      ['POST', '/v2/locator/share-token', {}],
      ['POST', '/v2/locator/redeem', { code: 'ABCD-EFGH-JKMN' }],
      ['GET', '/v2/locator/viewers', undefined],
      ['GET', '/v2/locator/watching', undefined],
      ['POST', '/v2/locator/checkin', { lat: 5.6, lng: -0.2 }],
      ['GET', `/v2/locator/${ama.account}/location`, undefined],
      ['DELETE', '/v2/locator/data', undefined],
    ] as const) {
      const byKey = await call(method, url, ama.key, body);
      expect({ url, status: byKey.status, code: byKey.body.error?.code }).toEqual({ url, status: 403, code: 'PERSONAL_TOKEN_REQUIRED' });
      expect((await service.request(method, url, { body })).status).toBe(401);
    }
  });

  it('mints human-typable single-use codes; a redemption pairs the two accounts, listed on both sides', async () => {
    const [kofi, esi] = [await person('Kofi'), await person('Esi')];
    const minted = await mint(kofi, { label: 'Esi' });
    expect(minted.code).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/);
    expect(minted).toMatchObject({ ttl_s: 600, share_for_s: null });
    expect(Date.parse(minted.expires_at) - Date.now()).toBeGreaterThan(590_000);
    // The code itself is stored nowhere: not in any event, nor in the read model.
    const all = await service.runtime.backends.events.readAll();
    expect(JSON.stringify(all.map((event) => [event.streamName, event.data]))).not.toContain(minted.code.replace(/-/g, ''));

    // Typed the way people type it.
    const paired = await redeem(esi, ` ${minted.code.toLowerCase().replace(/-/g, ' ')} `);
    expect(paired.status).toBe(201);
    expect(paired.body.data).toMatchObject({ pairing_id: minted.share_id, target_id: kofi.account, target_name: 'Kofi', expires_at: null });

    const viewers = await call<{ items: Array<Record<string, unknown>>; pending_codes: unknown[] }>('GET', '/v2/locator/viewers', kofi.token);
    expect(viewers.body.data.items).toEqual([{ pairing_id: minted.share_id, viewer_id: esi.account, viewer_name: 'Esi', label: 'Esi', paired_at: expect.any(String), expires_at: null }]);
    expect(viewers.body.data.pending_codes).toEqual([]);
    const watching = await call<{ items: Array<Record<string, unknown>> }>('GET', '/v2/locator/watching', esi.token);
    expect(watching.body.data.items).toEqual([{ pairing_id: minted.share_id, target_id: kofi.account, target_name: 'Kofi', paired_at: expect.any(String), expires_at: null }]);
    expect((await call<{ items: unknown[] }>('GET', '/v2/locator/watching', kofi.token)).body.data.items).toEqual([]);
  });

  it('answers a used, an unknown and an expired code alike (no oracle), refuses your own code, and 400s a malformed one', async () => {
    const [owner, viewer, other] = [await person('Yaw'), await person('Akua'), await person('Kwame')];
    const used = await mint(owner);
    expect((await redeem(viewer, used.code)).status).toBe(201);
    const expiring = await mint(owner);
    const answers = [
      await redeem(other, used.code),
      await redeem(other, 'ZZZZ-ZZZZ-ZZZZ'),
      await withClockAhead(600, () => redeem(other, expiring.code)),
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(404);
      const { request_id: _requestId, ...error } = answer.body.error;
      expect(error).toEqual({ code: 'SHARE_CODE_INVALID', message: 'this share code is unknown, already used or expired; ask for a new one', field: 'code' });
    }
    // The expiring code still works just before its ten minutes are up.
    expect((await withClockAhead(590, () => redeem(other, expiring.code))).status).toBe(201);

    const own = await mint(owner);
    expect(await redeem(owner, own.code)).toMatchObject({ status: 400, body: { error: { code: 'OWN_SHARE_CODE', field: 'code' } } });
    expect(await redeem(viewer, 'ABCD-EFGH-JKMU')).toMatchObject({ status: 400, body: { error: { code: 'INVALID_PARAM', field: 'code' } } });
    // Already paired: refused, and the code stays unused for someone else.
    expect(await redeem(viewer, own.code)).toMatchObject({ status: 409, body: { error: { code: 'ALREADY_PAIRED', details: { pairing_id: used.share_id } } } });
    expect((await call<{ pending_codes: Array<{ share_id: string }> }>('GET', '/v2/locator/viewers', owner.token)).body.data.pending_codes.map((code) => code.share_id)).toEqual([own.share_id]);
  });

  it('lets exactly one of several people redeeming one code at the same moment have it', async () => {
    const owner = await person('Popular');
    const racers = await Promise.all(['R1', 'R2', 'R3', 'R4', 'R5'].map((name) => person(name)));
    const { code, share_id } = await mint(owner);
    const answers = await Promise.all(racers.map((racer) => redeem(racer, code)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 404, 404, 404, 404]);
    expect(answers.filter((answer) => answer.status === 404).every((answer) => answer.body.error.code === 'SHARE_CODE_INVALID')).toBe(true);
    const listed = await call<{ items: Array<{ pairing_id: string }> }>('GET', '/v2/locator/viewers', owner.token);
    expect(listed.body.data.items.map((item) => item.pairing_id)).toEqual([share_id]);
  });

  it('throttles wrong codes per account: the 11th in 15 minutes is 429 with Retry-After, whatever the code', async () => {
    const [owner, guesser] = [await person('Owner'), await person('Guesser')];
    for (let attempt = 0; attempt < 10; attempt++) expect((await redeem(guesser, `ZZZZ-ZZZZ-ZZ${String(attempt).padStart(2, '0')}`)).status).toBe(404);
    const valid = await mint(owner);
    const refused = await redeem(guesser, valid.code);
    expect(refused).toMatchObject({ status: 429, body: { error: { code: 'RATE_LIMITED' } } });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // The code was not looked at: someone else can still redeem it.
    expect((await redeem(await person('Friend'), valid.code)).status).toBe(201);
  });

  // Issue 31, item 5: a burst of check-ins of one account used up the conflict retries and answered 409.
  it('takes a burst of concurrent check-ins of one account without a 409, and documents the 409 that remains possible', async () => {
    const owner = await person('Burst');
    const answers = await Promise.all(Array.from({ length: 40 }, (_, index) => checkIn(owner, { lat: 5.6 + index / 1000, lng: -0.187 })));
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200));
    const document = (await (await service.request('GET', '/v2/openapi.json')).json()) as { paths: Record<string, Record<string, { responses: Record<string, { description: string }> }>> };
    expect(document.paths['/v2/locator/checkin'].post.responses['409'].description).toContain('CONCURRENCY_CONFLICT');
    expect(document.paths['/v2/collections/register'].post.responses['409'].description).toContain('CONCURRENCY_CONFLICT');
  });

  it('shows a paired viewer the latest check-in of the account with its age; others get one 404 that says nothing', async () => {
    const [owner, viewer, stranger] = [await person('Adjoa'), await person('Kojo'), await person('Stranger')];
    expect((await redeem(viewer, (await mint(owner)).code)).status).toBe(201);
    expect((await locate(viewer, owner.account)).body.data).toMatchObject({ target_id: owner.account, position: null });

    expect((await checkIn(owner, { lat: 5.6037, lng: -0.187, accuracy_m: 15 })).status).toBe(200);
    // A second device of the same person: the same account, so the same position stream.
    const secondDevice = await data<{ token: string }>(await service.request('POST', '/v2/auth/login', { key: owner.key, body: { email: await emailOf(owner), password: PASSWORD } }));
    expect((await call('POST', '/v2/locator/checkin', secondDevice.token, { lat: 5.5497, lng: -0.2107 })).status).toBe(200);

    const seen = await withClockAhead(90, () => locate(viewer, owner.account));
    expect(seen.status).toBe(200);
    expect(seen.body.data.position).toMatchObject({ lat: 5.5497, lng: -0.2107, accuracy_m: null });
    expect(seen.body.data.position!.age_s).toBeGreaterThanOrEqual(90);
    expect((await locate(owner, owner.account)).body.data.position).toMatchObject({ lat: 5.5497 });

    const notShared = await locate(stranger, owner.account);
    const noSuchAccount = await locate(stranger, 'acct_doesnotexist0000000');
    const backwards = await locate(owner, viewer.account);
    for (const answer of [notShared, noSuchAccount, backwards]) {
      expect(answer.status).toBe(404);
      const { request_id: _requestId, ...error } = answer.body.error;
      expect(error).toEqual({ code: 'LOCATION_NOT_SHARED', message: 'no active share lets you see this location', field: 'targetId' });
    }
    expect(await locate(viewer, 'not-an-account')).toMatchObject({ status: 400, body: { error: { code: 'INVALID_PARAM', field: 'targetId' } } });
    expect(await checkIn(owner, { lat: 95, lng: 0 })).toMatchObject({ status: 400, body: { error: { field: 'lat' } } });
    expect(await checkIn(owner, { lat: 5, lng: 0, accuracy_m: -3 })).toMatchObject({ status: 400, body: { error: { field: 'accuracy_m' } } });
  });

  it('keeps several shares, each with its own expiry and revoke: revoking or expiring one leaves the others', async () => {
    const [owner, brief, forever, third] = [await person('Efua'), await person('Brief'), await person('Forever'), await person('Third')];
    const [hour, open, other] = [await mint(owner, { share_for_s: 3600 }), await mint(owner), await mint(owner)];
    expect((await call<{ pending_codes: unknown[] }>('GET', '/v2/locator/viewers', owner.token)).body.data.pending_codes).toHaveLength(3);
    expect((await redeem(brief, hour.code)).body.data.expires_at).not.toBeNull();
    expect((await redeem(forever, open.code)).status).toBe(201);
    expect((await redeem(third, other.code)).status).toBe(201);
    await checkIn(owner, { lat: 5.6, lng: -0.18 });

    // Revoking one pairing: only that viewer loses sight, at once.
    const revoked = await call('DELETE', `/v2/locator/viewers/${other.share_id}`, owner.token);
    expect(revoked).toMatchObject({ status: 200, body: { data: { pairing_id: other.share_id, revoked: true } } });
    expect((await locate(third, owner.account)).status).toBe(404);
    expect((await locate(brief, owner.account)).status).toBe(200);
    expect((await locate(forever, owner.account)).status).toBe(200);
    expect((await call('DELETE', `/v2/locator/viewers/${other.share_id}`, owner.token)).body.error.code).toBe('PAIRING_NOT_FOUND');
    // A viewer cannot revoke through the owner's door, nor a stranger at all.
    expect((await call('DELETE', `/v2/locator/viewers/${open.share_id}`, forever.token)).status).toBe(404);
    expect((await call('DELETE', `/v2/locator/viewers/${open.share_id}`, third.token)).status).toBe(404);

    // The hour-long share ends by itself after an hour: no viewer list, no location, no revocation.
    await withClockAhead(3601, async () => {
      expect((await locate(brief, owner.account)).body.error.code).toBe('LOCATION_NOT_SHARED');
      expect((await locate(forever, owner.account)).status).toBe(200);
      const listed = await call<{ items: Array<{ pairing_id: string }> }>('GET', '/v2/locator/viewers', owner.token);
      expect(listed.body.data.items.map((item) => item.pairing_id)).toEqual([open.share_id]);
      expect((await call<{ items: unknown[] }>('GET', '/v2/locator/watching', brief.token)).body.data.items).toEqual([]);
      expect((await call('DELETE', `/v2/locator/viewers/${hour.share_id}`, owner.token)).status).toBe(404);
    });
    expect((await locate(brief, owner.account)).status).toBe(200);

    // The viewer may end a pairing from their side.
    expect((await call('DELETE', `/v2/locator/watching/${open.share_id}`, forever.token)).status).toBe(200);
    expect((await locate(forever, owner.account)).status).toBe(404);
    expect((await call('DELETE', '/v2/locator/viewers/not-a-pairing', owner.token)).body.error).toMatchObject({ code: 'INVALID_PARAM', field: 'pairingId' });
  });

  it('lets the owner cancel an unused code: it then answers like any invalid code, the others stay', async () => {
    const [owner, viewer, other] = [await person('Ekow'), await person('Wrong'), await person('Right')];
    const [mistake, kept] = [await mint(owner), await mint(owner)];
    const cancelled = await call('DELETE', `/v2/locator/share-token/${mistake.share_id}`, owner.token);
    expect(cancelled).toMatchObject({ status: 200, body: { data: { share_id: mistake.share_id, cancelled: true } } });
    expect((await redeem(viewer, mistake.code)).body.error.code).toBe('SHARE_CODE_INVALID');
    expect((await call<{ pending_codes: Array<{ share_id: string }> }>('GET', '/v2/locator/viewers', owner.token)).body.data.pending_codes.map((code) => code.share_id)).toEqual([kept.share_id]);
    expect((await call('DELETE', `/v2/locator/share-token/${kept.share_id}`, other.token)).body.error.code).toBe('SHARE_CODE_NOT_FOUND');
    expect((await call('DELETE', `/v2/locator/share-token/${mistake.share_id}`, owner.token)).status).toBe(404);
    expect((await redeem(other, kept.code)).status).toBe(201);
    expect((await call('DELETE', `/v2/locator/share-token/${kept.share_id}`, owner.token)).status).toBe(404);
  });

  it('caps live codes per owner', async () => {
    const owner = await person('Hoarder');
    for (let index = 0; index < 10; index++) await mint(owner);
    const refused = await call('POST', '/v2/locator/share-token', owner.token, {});
    expect(refused).toMatchObject({ status: 409, body: { error: { code: 'SHARE_CODE_LIMIT_REACHED', details: { max: 10 } } } });
    // Expired codes no longer count.
    expect((await withClockAhead(601, () => call('POST', '/v2/locator/share-token', owner.token, {}))).status).toBe(201);
    expect(await call('POST', '/v2/locator/share-token', owner.token, { share_for_s: 10 })).toMatchObject({ status: 400, body: { error: { field: 'share_for_s' } } });
  });

  it('erases every check-in at the owner\'s request by destroying the key: nothing readable remains, the pairing stays', async () => {
    const [owner, viewer] = [await person('Abena'), await person('Yaa')];
    expect((await redeem(viewer, (await mint(owner)).code)).status).toBe(201);
    // Digits that occur nowhere else.
    const secret = { lat: 5.6148219, lng: -0.2058747 };
    await checkIn(owner, secret);
    await checkIn(owner, { lat: 5.61, lng: -0.2 });
    expect((await locate(viewer, owner.account)).body.data.position).toMatchObject({ lat: 5.61 });
    const stored = await service.runtime.backends.events.readStream(positionStream(owner.account));
    const keyId = String(stored[0].data.key_id);
    const vault = service.runtime.backends.dataKeys;
    const dataKey = (await vault.find(PositionSealing.subject(owner.account), keyId))!;
    expect(dataKey).toBeDefined();
    for (const needle of [String(secret.lat), String(secret.lng)]) expect({ needle, files: containing(needle) }).toEqual({ needle, files: [] });

    const erased = await call('DELETE', '/v2/locator/data', owner.token);
    expect(erased).toMatchObject({ status: 200, body: { data: { erased: true, events_erased: 2 } } });
    expect(await vault.find(PositionSealing.subject(owner.account), keyId)).toBeUndefined();
    await expect(service.runtime.backends.events.readStream(positionStream(owner.account))).rejects.toBeInstanceOf(StreamNotFoundError);
    for (const form of [dataKey.key, Buffer.from(dataKey.key.toString('hex')), Buffer.from(dataKey.key.toString('base64'))]) expect(containing(form)).toEqual([]);
    expect((await locate(viewer, owner.account))).toMatchObject({ status: 200, body: { data: { position: null } } });
    // The erasure is recorded, without any location.
    const record = await service.runtime.backends.events.readStream(`locator_erasure-${owner.account}`);
    expect(record.map((event) => event.type)).toEqual(['LocatorPositionsErased']);
    expect(Object.keys(record[0].data).sort()).toEqual(['account_id', 'erased_at', 'erased_by', 'events_erased']);
    // Repeating it is safe, also several at once; a new check-in starts over under a new key.
    const again = await Promise.all([0, 1, 2].map(() => call('DELETE', '/v2/locator/data', owner.token)));
    expect(again.map((answer) => [answer.status, answer.body.data.events_erased])).toEqual([[200, 0], [200, 0], [200, 0]]);
    await checkIn(owner, { lat: 6.5, lng: -1.6 });
    expect((await locate(viewer, owner.account)).body.data.position).toMatchObject({ lat: 6.5 });
  });

  /** Files under the service's data folder holding `needle`. */
  function containing(needle: string | Buffer): string[] {
    return readdirSync(service.dataDir, { recursive: true, encoding: 'utf8' })
      .map((name) => path.join(service.dataDir, name))
      .filter((file) => statSync(file).isFile() && readFileSync(file).includes(needle))
      .map((file) => path.relative(service.dataDir, file));
  }

  async function emailOf(someone: Person): Promise<string> {
    const me = await json<{ data: { email?: string } }>(await service.request('GET', '/v2/me', { key: someone.key }));
    if (me.data.email) return me.data.email;
    throw new Error('GET /v2/me does not show the e-mail address');
  }
});
