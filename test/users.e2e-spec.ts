import { jest } from '@jest/globals';
import bcrypt from 'bcryptjs';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { KeyDirectory } from '../libs/accounts/src/index.js';
import { BackgroundTasks } from '../libs/accounts/src/index.js';
import { parseEml } from '../libs/platform/src/mail/testing/parse-eml.js';
import { ADMIN_KEY, bootService, eventually, type Service } from './support/boot.js';

/**
 * Users over HTTP (interface.md, "Authentication" 4–5): passwords, e-mail
 * sign-in, Google sign-in with a local JWKS, forgot and reset password through
 * the outbox. bcrypt runs at cost 4 here (BCRYPT_COST).
 */
const CLIENT_ID = 'e2e-server.apps.googleusercontent.com';
const STRONG = 'kelewele at midnight';
const STRONGER = 'jollof-rice-Kumasi-Tuesday';

interface Envelope<T = Record<string, unknown>> {
  success: boolean;
  data: T;
  error: { code: string; message: string; field?: string; request_id: string };
}
interface SignedUp {
  key: string;
  email: string;
  account_id: string;
}
interface PersonalToken {
  token: string;
  token_prefix: string;
  expires_at: string;
  user_id: string;
  account_id: string;
}

let service: Service;
let jwks: Server;
let jwksUrl: string;
let googleKey: CryptoKey;

beforeAll(async () => {
  const pair = await generateKeyPair('RS256', { extractable: true });
  googleKey = pair.privateKey;
  const jwk: JWK = { ...(await exportJWK(pair.publicKey)), kid: 'e2e-key', alg: 'RS256', use: 'sig' };
  jwks = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((resolve) => jwks.listen(0, '127.0.0.1', resolve));
  jwksUrl = `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/oauth2/v3/certs`;
  service = await bootService({ env: { BCRYPT_COST: '4', GOOGLE_JWKS_URL: jwksUrl, GOOGLE_CLIENT_IDS: `${CLIENT_ID}, e2e-ios.apps.googleusercontent.com` } });
});

afterAll(async () => {
  await service?.close();
  await new Promise<void>((resolve) => jwks?.close(() => resolve()));
});

function uniqueEmail(): string {
  return `user-${Math.random().toString(36).slice(2)}@example.com`;
}

async function call<T = Record<string, unknown>>(method: string, url: string, init: { key?: string; body?: unknown } = {}): Promise<{ status: number; body: Envelope<T> }> {
  const response = await service.request(method, url, init);
  return { status: response.status, body: (await response.json()) as Envelope<T> };
}

async function signUp(email = uniqueEmail()): Promise<SignedUp> {
  const { status, body } = await call<{ key: string }>('POST', '/v2/self/signup', { body: { name: 'Ama Mensah', email } });
  expect(status).toBe(201);
  const me = await call<{ account_id: string }>('GET', '/v2/me', { key: body.data.key });
  return { key: body.data.key, email, account_id: me.body.data.account_id };
}

async function withPassword(password = STRONG): Promise<SignedUp> {
  const account = await signUp();
  const { status } = await call('POST', '/v2/me/password', { key: account.key, body: { password } });
  expect(status).toBe(200);
  return account;
}

function logIn(key: string, email: string, password: string) {
  return call<PersonalToken>('POST', '/v2/auth/login', { key, body: { email, password } });
}

/** Decoded text of every outbox mail to `to` with this subject. */
function mailsTo(to: string, subject: string): string[] {
  const outbox = path.join(service.dataDir, 'outbox');
  let files: string[];
  try {
    files = readdirSync(outbox).filter((name) => name.endsWith('.eml'));
  } catch {
    return [];
  }
  return files
    .map((name) => parseEml(readFileSync(path.join(outbox, name))))
    .filter((mail) => mail.headers.get('to') === to && mail.headers.get('subject') === subject)
    .map((mail) => mail.text ?? '');
}

async function resetTokenMailedTo(email: string, already = 0): Promise<string> {
  const mail = await eventually(async () => {
    const mails = mailsTo(email, 'Reset your password');
    return mails.length > already ? mails[mails.length - 1] : undefined;
  });
  const token = /^ {4}([A-Za-z0-9_-]{43})$/m.exec(mail)?.[1];
  expect(token).toBeDefined();
  return token!;
}

async function forgot(key: string, email: string) {
  return call('POST', '/v2/auth/forgot-password', { key, body: { email } });
}

async function idToken(claims: Record<string, unknown>, key: CryptoKey = googleKey): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ iss: 'https://accounts.google.com', aud: CLIENT_ID, sub: '1101694844', email_verified: true, iat: now - 10, exp: now + 3600, ...claims })
    .setProtectedHeader({ alg: 'RS256', kid: 'e2e-key', typ: 'JWT' })
    .sign(key);
}

function keyRecordOf(token: string) {
  return service.app.get(KeyDirectory).byKeyHash(createHash('sha256').update(token).digest('hex'));
}

describe('POST /v2/me/password', () => {
  it('refuses weak passwords with WEAK_PASSWORD naming the field, then attaches a good one', async () => {
    const account = await signUp();
    for (const password of ['password', 'q7#Vm2!', 'abcdefgh']) {
      const weak = await call('POST', '/v2/me/password', { key: account.key, body: { password } });
      expect(weak.status).toBe(400);
      expect(weak.body).toMatchObject({ success: false, error: { code: 'WEAK_PASSWORD', field: 'password' } });
    }
    const missing = await call('POST', '/v2/me/password', { key: account.key, body: {} });
    expect(missing.body.error).toMatchObject({ code: 'INVALID_PARAM', field: 'password' });

    const attached = await call('POST', '/v2/me/password', { key: account.key, body: { password: STRONG } });
    expect(attached.status).toBe(200);
    expect(attached.body.data).toMatchObject({
      user_id: account.account_id.replace(/^acct_/, 'usr_'),
      account_id: account.account_id,
      email: account.email,
      password: 'attached',
      personal_tokens_revoked: 0,
    });
  });

  it('changes a password only with the right current_password, and signs out the other personal tokens', async () => {
    const account = await withPassword();
    const session = (await logIn(account.key, account.email, STRONG)).body.data;

    const without = await call('POST', '/v2/me/password', { key: account.key, body: { password: STRONGER } });
    expect(without.status).toBe(400);
    expect(without.body.error).toMatchObject({ code: 'CURRENT_PASSWORD_REQUIRED', field: 'current_password' });
    const wrong = await call('POST', '/v2/me/password', { key: account.key, body: { password: STRONGER, current_password: 'not it at all' } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toMatchObject({ code: 'INVALID_CURRENT_PASSWORD', field: 'current_password' });

    const changed = await call('POST', '/v2/me/password', { key: account.key, body: { password: STRONGER, current_password: STRONG } });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({ password: 'changed', personal_tokens_revoked: 1 });
    expect((await call('GET', '/v2/me', { key: session.token })).status).toBe(401);
    expect((await logIn(account.key, account.email, STRONG)).status).toBe(401);
    expect((await logIn(account.key, account.email, STRONGER)).status).toBe(200);
  });

  it('refuses the operator key and legacy keys with ACCOUNT_KEY_REQUIRED', async () => {
    const operator = await call('POST', '/v2/me/password', { key: ADMIN_KEY, body: { password: STRONG } });
    expect(operator.status).toBe(403);
    expect(operator.body.error.code).toBe('ACCOUNT_KEY_REQUIRED');
    const legacy = await call<{ key: string }>('POST', '/v2/admin/keys', { key: ADMIN_KEY, body: { name: 'old integration', tier: 'pro' } });
    const refused = await call('POST', '/v2/me/password', { key: legacy.body.data.key, body: { password: STRONG } });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('ACCOUNT_KEY_REQUIRED');
  });

  it('gives e-mail sign-in to the first account opened with an address: a later one gets EMAIL_IN_USE', async () => {
    const email = uniqueEmail();
    const first = await signUp(email);
    const second = await signUp(email);
    const taken = await call('POST', '/v2/me/password', { key: second.key, body: { password: STRONG } });
    expect(taken.status).toBe(409);
    expect(taken.body.error.code).toBe('EMAIL_IN_USE');
    await call('POST', '/v2/me/password', { key: first.key, body: { password: STRONG } });
    expect((await logIn(second.key, email, STRONG)).body.data.account_id).toBe(first.account_id);
  });
});

describe('POST /v2/auth/login', () => {
  it('answers a personal token that works as X-API-Key on GET /v2/me', async () => {
    const account = await withPassword();
    // Any valid key may sign in (interface.md: "Key by the general rule"): here another account's.
    const other = await signUp();
    const before = Date.now();
    const { status, body } = await logIn(other.key, account.email.toUpperCase(), STRONG);
    expect(status).toBe(200);
    const token = body.data;
    expect(token).toEqual({
      token: expect.stringMatching(/^[0-9a-f]{64}$/),
      token_prefix: `${token.token.slice(0, 8)}…`,
      expires_at: expect.any(String),
      user_id: account.account_id.replace(/^acct_/, 'usr_'),
      account_id: account.account_id,
    });
    const lifetime = new Date(token.expires_at).getTime() - before;
    expect(lifetime).toBeGreaterThan(30 * 86_400_000 - 60_000);
    expect(lifetime).toBeLessThanOrEqual(30 * 86_400_000 + 60_000);

    const me = await call('GET', '/v2/me', { key: token.token });
    expect(me.status).toBe(200);
    expect(me.body.data).toMatchObject({ account_id: account.account_id, key_prefix: token.token_prefix, email: account.email, tier: 'free', expires_at: token.expires_at });
    expect(keyRecordOf(token.token)).toMatchObject({ kind: 'personal', user_id: token.user_id, account_id: account.account_id });
  });

  it('gives the identical 401 for a wrong password, an address without a password, and an unknown address', async () => {
    const account = await withPassword();
    const passwordless = await signUp();
    const answers = await Promise.all([
      logIn(account.key, account.email, 'Wrong-but-long-enough'),
      logIn(account.key, passwordless.email, STRONG),
      logIn(account.key, uniqueEmail(), STRONG),
    ]);
    for (const answer of answers) expect(answer.status).toBe(401);
    const bodies = answers.map(({ body }) => ({ ...body, error: { ...body.error, request_id: undefined } }));
    expect(bodies[0]).toEqual({ success: false, error: { code: 'INVALID_CREDENTIALS', message: expect.any(String), request_id: undefined } });
    expect(bodies[1]).toEqual(bodies[0]);
    expect(bodies[2]).toEqual(bodies[0]);
  });

  it('needs a key, and refuses a body that is not an address and a password', async () => {
    const anonymous = await call('POST', '/v2/auth/login', { body: { email: 'a@example.com', password: STRONG } });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error.code).toBe('MISSING_API_KEY');
    const account = await signUp();
    const bad = await call('POST', '/v2/auth/login', { key: account.key, body: { email: 'not-an-address', password: STRONG } });
    expect(bad.body.error).toMatchObject({ code: 'INVALID_PARAM', field: 'email' });
  });

  it('throttles an address after 10 failed sign-ins, known or not', async () => {
    const account = await signUp();
    const email = uniqueEmail();
    for (let i = 0; i < 10; i += 1) expect((await logIn(account.key, email, STRONG)).status).toBe(401);
    const throttled = await logIn(account.key, email, STRONG);
    expect(throttled.status).toBe(429);
    expect(throttled.body.error.code).toBe('RATE_LIMITED');
  });
});

describe('forgot and reset password', () => {
  it('answers a known and an unknown address identically, and mails only the known one', async () => {
    const account = await withPassword();
    const unknown = uniqueEmail();
    const passwordless = await signUp();
    const answers = await Promise.all([forgot(account.key, unknown), forgot(account.key, passwordless.email), forgot(account.key, account.email)]);
    for (const answer of answers) {
      expect(answer.status).toBe(202);
      expect(answer.body.data).toEqual(answers[0].body.data);
    }
    expect(answers[0].body.data).toMatchObject({ accepted: true });

    await service.app.get(BackgroundTasks).settled();
    await resetTokenMailedTo(account.email);
    // Mail is sent one job at a time in order; give a stray one a moment more to show up.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(mailsTo(unknown, 'Reset your password')).toEqual([]);
    expect(mailsTo(passwordless.email, 'Reset your password')).toEqual([]);
  });

  it('resets with the mailed token once: personal tokens are revoked, the token is spent', async () => {
    const account = await withPassword();
    const session = (await logIn(account.key, account.email, STRONG)).body.data;
    await forgot(account.key, account.email);
    const token = await resetTokenMailedTo(account.email);

    const weak = await call('POST', '/v2/auth/reset-password', { key: account.key, body: { token, password: 'password1' } });
    expect(weak.status).toBe(400);
    expect(weak.body.error).toMatchObject({ code: 'WEAK_PASSWORD', field: 'password' });

    const reset = await call('POST', '/v2/auth/reset-password', { key: account.key, body: { token, password: STRONGER } });
    expect(reset.status).toBe(200);
    expect(reset.body.data).toMatchObject({ user_id: session.user_id, account_id: account.account_id, personal_tokens_revoked: 1 });
    expect((await call('GET', '/v2/me', { key: session.token })).status).toBe(401);
    expect((await logIn(account.key, account.email, STRONG)).status).toBe(401);
    expect((await logIn(account.key, account.email, STRONGER)).status).toBe(200);

    const again = await call('POST', '/v2/auth/reset-password', { key: account.key, body: { token, password: 'yet another good passphrase' } });
    expect(again.status).toBe(400);
    expect(again.body.error).toMatchObject({ code: 'INVALID_RESET_TOKEN', field: 'token' });
  });

  it('refuses a malformed or unknown token with INVALID_RESET_TOKEN', async () => {
    const account = await signUp();
    for (const token of ['nope', 'A'.repeat(43)]) {
      const refused = await call('POST', '/v2/auth/reset-password', { key: account.key, body: { token, password: STRONG } });
      expect(refused.status).toBe(400);
      expect(refused.body.error).toMatchObject({ code: 'INVALID_RESET_TOKEN', field: 'token' });
    }
  });

  it('answers INVALID_API_KEY for an expired personal token', async () => {
    const account = await withPassword();
    const { body } = await logIn(account.key, account.email, STRONG);
    const token = body.data.token;
    expect((await call('GET', '/v2/me', { key: token })).status).toBe(200);
    const clock = service.runtime.clock;
    const realNow = clock.now.bind(clock);
    const spy = jest.spyOn(clock, 'now').mockImplementation(() => new Date(realNow().getTime() + 31 * 86_400_000));
    try {
      const expired = await call('GET', '/v2/me', { key: token });
      expect(expired.status).toBe(401);
      expect(expired.body.error.code).toBe('INVALID_API_KEY');
      // The account key itself does not expire.
      expect((await call('GET', '/v2/me', { key: account.key })).status).toBe(200);
    } finally {
      spy.mockRestore();
    }
  });

  it('refuses a token after 30 minutes (the service clock moved on)', async () => {
    const account = await withPassword();
    await forgot(account.key, account.email);
    const token = await resetTokenMailedTo(account.email);
    const clock = service.runtime.clock;
    const realNow = clock.now.bind(clock);
    const spy = jest.spyOn(clock, 'now').mockImplementation(() => new Date(realNow().getTime() + 30 * 60_000 + 1000));
    try {
      const expired = await call('POST', '/v2/auth/reset-password', { key: account.key, body: { token, password: STRONGER } });
      expect(expired.status).toBe(400);
      expect(expired.body.error.code).toBe('INVALID_RESET_TOKEN');
    } finally {
      spy.mockRestore();
    }
    expect((await logIn(account.key, account.email, STRONG)).status).toBe(200);
  });
});

describe('POST /v2/auth/google/mobile', () => {
  it('gives the account of the verified address a personal token, and ties it to that Google account', async () => {
    const account = await signUp();
    const signedIn = await call<PersonalToken>('POST', '/v2/auth/google/mobile', { key: account.key, body: { id_token: await idToken({ email: account.email, sub: 'g-100' }) } });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.data).toMatchObject({ account_id: account.account_id, user_id: account.account_id.replace(/^acct_/, 'usr_') });
    const me = await call('GET', '/v2/me', { key: signedIn.body.data.token });
    expect(me.status).toBe(200);
    expect(keyRecordOf(signedIn.body.data.token)).toMatchObject({ kind: 'personal', account_id: account.account_id });

    expect((await call('POST', '/v2/auth/google/mobile', { key: account.key, body: { id_token: await idToken({ email: account.email, sub: 'g-100' }) } })).status).toBe(200);
    const other = await call('POST', '/v2/auth/google/mobile', { key: account.key, body: { id_token: await idToken({ email: account.email, sub: 'g-999' }) } });
    expect(other.status).toBe(403);
    expect(other.body.error.code).toBe('GOOGLE_ACCOUNT_MISMATCH');
  });

  it('answers 404 ACCOUNT_NOT_FOUND for an address no account signed up with', async () => {
    const account = await signUp();
    const missing = await call('POST', '/v2/auth/google/mobile', { key: account.key, body: { id_token: await idToken({ email: uniqueEmail() }) } });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('ACCOUNT_NOT_FOUND');
  });

  it('refuses a forged, mis-addressed or unverified token with INVALID_ID_TOKEN', async () => {
    const account = await signUp();
    const stranger = (await generateKeyPair('RS256')).privateKey;
    const tokens = [
      await idToken({ email: account.email }, stranger),
      await idToken({ email: account.email, aud: 'someone-else.apps.googleusercontent.com' }),
      await idToken({ email: account.email, email_verified: false }),
      'not.a.jwt',
    ];
    for (const token of tokens) {
      const refused = await call('POST', '/v2/auth/google/mobile', { key: account.key, body: { id_token: token } });
      expect(refused.status).toBe(401);
      expect(refused.body.error.code).toBe('INVALID_ID_TOKEN');
    }
  });

  it("answers 503 when Google's signing keys cannot be fetched", async () => {
    const unreachable = await bootService({ env: { BCRYPT_COST: '4', GOOGLE_JWKS_URL: 'http://127.0.0.1:9/certs', GOOGLE_CLIENT_IDS: CLIENT_ID } });
    try {
      const signup = await unreachable.request('POST', '/v2/self/signup', { body: { name: 'Kofi', email: uniqueEmail() } });
      const { key, email } = ((await signup.json()) as Envelope<{ key: string; email: string }>).data;
      const response = await unreachable.request('POST', '/v2/auth/google/mobile', { key, body: { id_token: await idToken({ email }) } });
      expect(response.status).toBe(503);
    } finally {
      await unreachable.close();
    }
  });

  it('answers 503 GOOGLE_SIGN_IN_UNAVAILABLE when no client id is configured', async () => {
    const unconfigured = await bootService({ env: { BCRYPT_COST: '4' } });
    try {
      const signup = await unconfigured.request('POST', '/v2/self/signup', { body: { name: 'Kofi', email: uniqueEmail() } });
      const { key, email } = ((await signup.json()) as Envelope<{ key: string; email: string }>).data;
      const response = await unconfigured.request('POST', '/v2/auth/google/mobile', { key, body: { id_token: await idToken({ email }) } });
      expect(response.status).toBe(503);
      expect(((await response.json()) as Envelope).error.code).toBe('GOOGLE_SIGN_IN_UNAVAILABLE');
    } finally {
      await unconfigured.close();
    }
  });
});

/** Issue #10, item 5: password hashing stalled the service, and password attempts were not throttled. */
describe('password hashing and attempts', () => {
  it('keeps a password hashed with bcrypt working, and stores it as scrypt at the next sign-in', async () => {
    const account = await signUp();
    const userId = account.account_id.replace(/^acct_/, 'usr_');
    // As stored before passwords moved to scrypt: a bcrypt hash at the cost then configured.
    const legacy = await bcrypt.hash(STRONG, 4);
    const at = new Date().toISOString();
    await service.runtime.backends.events.append(
      `user-${userId}`,
      [
        { type: 'UserRegistered', data: { user_id: userId, account_id: account.account_id, email: account.email, registered_at: at }, metadata: { schema_version: 1 } },
        { type: 'UserPasswordAttached', data: { user_id: userId, password_hash: legacy, attached_at: at }, metadata: { schema_version: 1 } },
      ],
      'no_stream',
    );
    expect((await logIn(account.key, account.email, 'not the password at all')).status).toBe(401);
    expect((await logIn(account.key, account.email, STRONG)).status).toBe(200);
    const [last] = await service.runtime.backends.events.readStream(`user-${userId}`, { direction: 'backwards', maxCount: 1 });
    expect(last).toMatchObject({ type: 'UserPasswordRehashed', data: { password_hash: expect.stringMatching(/^\$scrypt\$ln=7,r=8,p=\d+\$/) } });
    expect((await logIn(account.key, account.email, STRONG)).status).toBe(200);
    expect((await logIn(account.key, account.email, STRONGER)).status).toBe(401);
  });

  it('throttles wrong current passwords per account: 429 RATE_LIMITED with Retry-After after 10', async () => {
    const account = await withPassword();
    for (let i = 0; i < 10; i += 1) {
      const wrong = await call('POST', '/v2/me/password', { key: account.key, body: { password: STRONGER, current_password: `not it ${i}` } });
      expect(wrong.body.error.code).toBe('INVALID_CURRENT_PASSWORD');
    }
    const throttled = await service.request('POST', '/v2/me/password', { key: account.key, body: { password: STRONGER, current_password: STRONG } });
    expect(throttled.status).toBe(429);
    expect(((await throttled.json()) as Envelope).error.code).toBe('RATE_LIMITED');
    expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('throttles failed sign-ins per client IP across addresses: 429 RATE_LIMITED with Retry-After after 50', async () => {
    const own = await bootService({ env: { BCRYPT_COST: '4' } });
    try {
      const signup = await own.request('POST', '/v2/self/signup', { body: { name: 'Kofi', email: uniqueEmail() } });
      const { key } = ((await signup.json()) as Envelope<{ key: string }>).data;
      const attempt = () => own.request('POST', '/v2/auth/login', { key, body: { email: uniqueEmail(), password: STRONG } });
      for (let i = 0; i < 50; i += 1) expect((await attempt()).status).toBe(401);
      const throttled = await attempt();
      expect(throttled.status).toBe(429);
      expect(((await throttled.json()) as Envelope).error.code).toBe('RATE_LIMITED');
      expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await own.close();
    }
  });

  it('answers other requests while wrong passwords are being checked in parallel', async () => {
    // A production cost: each check takes long enough that a hash on the event loop would hold everything else up.
    const own = await bootService({ env: { BCRYPT_COST: '12' } });
    try {
      const signup = await own.request('POST', '/v2/self/signup', { body: { name: 'Kofi', email: uniqueEmail() } });
      const { key } = ((await signup.json()) as Envelope<{ key: string }>).data;
      expect((await own.request('POST', '/v2/me/password', { key, body: { password: STRONG } })).status).toBe(200);

      let stormOver = false;
      const storm = Promise.all(
        Array.from({ length: 8 }, (_, i) => own.request('POST', '/v2/me/password', { key, body: { password: STRONGER, current_password: `wrong guess ${i}` } })),
      ).finally(() => {
        stormOver = true;
      });
      // Health checks one after another, each sent when the previous one is answered, for as long as the storm lasts.
      let answered = 0;
      while (!stormOver && answered < 20) {
        const health = await own.request('GET', '/health');
        expect(health.status).toBe(200);
        if (!stormOver) answered += 1;
      }
      const statuses = (await storm).map((response) => response.status);
      expect(statuses).toEqual(Array(8).fill(400));
      // A hash on the event loop lets through a handful at most before the storm is over.
      expect(answered).toBe(20);
    } finally {
      await own.close();
    }
  }, 60_000);
});

describe('after a restart', () => {
  it('still knows passwords, addresses, personal tokens and unspent reset tokens', async () => {
    const account = await withPassword();
    const session = (await logIn(account.key, account.email, STRONG)).body.data;
    await forgot(account.key, account.email);
    const token = await resetTokenMailedTo(account.email);
    await service.close();
    // With a higher cost, too: the first sign-in stores the same password hashed at the new cost (scrypt N = 2^(cost + 3)).
    service = await bootService({ dataDir: service.dataDir, env: { BCRYPT_COST: '5', GOOGLE_JWKS_URL: jwksUrl, GOOGLE_CLIENT_IDS: CLIENT_ID } });

    expect((await call('GET', '/v2/me', { key: session.token })).status).toBe(200);
    expect((await logIn(account.key, account.email, STRONG)).status).toBe(200);
    const [last] = await service.runtime.backends.events.readStream(`user-${session.user_id}`, { direction: 'backwards', maxCount: 1 });
    expect(last).toMatchObject({ type: 'UserPasswordRehashed', data: { password_hash: expect.stringMatching(/^\$scrypt\$ln=8,/) } });
    expect((await logIn(account.key, account.email, STRONG)).status).toBe(200);
    const reset = await call('POST', '/v2/auth/reset-password', { key: account.key, body: { token, password: STRONGER } });
    expect(reset.status).toBe(200);
    // Every token issued before the reset, the one from before the restart included.
    expect(reset.body.data).toMatchObject({ personal_tokens_revoked: 3 });
    expect((await call('GET', '/v2/me', { key: session.token })).status).toBe(401);
  });
});
