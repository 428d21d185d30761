import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK, type JWTPayload } from 'jose';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { IdentityProviderUnavailableError, InvalidIdTokenError } from './errors.js';
import { GoogleIdTokenVerifier } from './google-id-token-verifier.js';

/**
 * The verifier fetches keys over real HTTP from a local JWKS server that
 * publishes one RS256 public key, as https://www.googleapis.com/oauth2/v3/certs does.
 */
const CLIENT_ID = '1234-server.apps.googleusercontent.com';
const OTHER_CLIENT_ID = '1234-android.apps.googleusercontent.com';
const KID = 'test-key-1';
const NOW = new Date('2025-03-01T12:00:00Z');
const nowSeconds = Math.floor(NOW.getTime() / 1000);

let server: Server;
let jwksUrl: string;
let googleKey: CryptoKey;
let strangerKey: CryptoKey;
let ecKey: CryptoKey;
let jwksRequests = 0;

beforeAll(async () => {
  const google = await generateKeyPair('RS256', { extractable: true });
  const stranger = await generateKeyPair('RS256', { extractable: true });
  const ec = await generateKeyPair('ES256', { extractable: true });
  googleKey = google.privateKey;
  strangerKey = stranger.privateKey;
  ecKey = ec.privateKey;
  const jwk: JWK = { ...(await exportJWK(google.publicKey)), kid: KID, alg: 'RS256', use: 'sig' };
  // A published key of another algorithm: Google signs ID tokens with RS256 only, so it must not be honoured.
  const ecJwk: JWK = { ...(await exportJWK(ec.publicKey)), kid: 'ec-key', use: 'sig' };
  server = createServer((request, response) => {
    jwksRequests += 1;
    if (request.url !== '/oauth2/v3/certs') {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk, ecJwk] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  jwksUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/oauth2/v3/certs`;
});

afterAll(async () => {
  await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
});

function verifier(overrides: { jwksUrl?: string; audiences?: string[] } = {}): GoogleIdTokenVerifier {
  return new GoogleIdTokenVerifier({
    audiences: overrides.audiences ?? [CLIENT_ID, OTHER_CLIENT_ID],
    jwksUrl: overrides.jwksUrl ?? jwksUrl,
    clockToleranceSeconds: 30,
    jwksTimeoutMs: 2000,
    clock: { now: () => NOW },
  });
}

interface TokenOptions {
  claims?: JWTPayload;
  issuer?: string;
  audience?: string;
  issuedAt?: number;
  expiresAt?: number;
  key?: CryptoKey;
  kid?: string;
  alg?: string;
  omit?: string[];
}

async function idToken(options: TokenOptions = {}): Promise<string> {
  const claims: JWTPayload = {
    iss: options.issuer ?? 'https://accounts.google.com',
    aud: options.audience ?? CLIENT_ID,
    sub: '110169484474386276334',
    email: 'ama.owusu@example.com',
    email_verified: true,
    name: 'Ama Owusu',
    iat: options.issuedAt ?? nowSeconds - 60,
    exp: options.expiresAt ?? nowSeconds + 3540,
    ...options.claims,
  };
  for (const claim of options.omit ?? []) delete claims[claim];
  return new SignJWT(claims).setProtectedHeader({ alg: options.alg ?? 'RS256', kid: options.kid ?? KID, typ: 'JWT' }).sign(options.key ?? googleKey);
}

async function refusal(token: unknown, using = verifier()): Promise<InvalidIdTokenError> {
  const error = await using.verify(token).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(InvalidIdTokenError);
  const refused = error as InvalidIdTokenError;
  expect(refused).toMatchObject({ code: 'INVALID_ID_TOKEN', status: 401 });
  // One fixed message whatever failed: the reason stays on the server.
  expect(refused.message).toBe(new InvalidIdTokenError('x').message);
  return refused;
}

describe('GoogleIdTokenVerifier (local JWKS over HTTP)', () => {
  it('accepts a valid token and answers subject, email and name', async () => {
    await expect(verifier().verify(await idToken())).resolves.toEqual({
      subject: '110169484474386276334',
      email: 'ama.owusu@example.com',
      name: 'Ama Owusu',
    });
    expect(jwksRequests).toBeGreaterThan(0);
  });

  it('accepts the issuer without a scheme, any configured audience, and no name', async () => {
    const token = await idToken({ issuer: 'accounts.google.com', audience: OTHER_CLIENT_ID, omit: ['name'] });
    await expect(verifier().verify(token)).resolves.toEqual({ subject: '110169484474386276334', email: 'ama.owusu@example.com' });
  });

  it('accepts a token that expired within the clock tolerance', async () => {
    await expect(verifier().verify(await idToken({ expiresAt: nowSeconds - 10 }))).resolves.toMatchObject({ email: 'ama.owusu@example.com' });
  });

  it('refuses a token for another audience', async () => {
    expect((await refusal(await idToken({ audience: 'someone-else.apps.googleusercontent.com' }))).reason).toMatch(/aud/);
  });

  it('refuses a token for a client id that this deployment does not list', async () => {
    await refusal(await idToken({ audience: OTHER_CLIENT_ID }), verifier({ audiences: [CLIENT_ID] }));
  });

  it.each([['https://evil.example.com'], ['http://accounts.google.com'], ['https://accounts.google.com/']])('refuses the issuer %s', async (issuer) => {
    expect((await refusal(await idToken({ issuer }))).reason).toMatch(/iss/);
  });

  it('refuses a token that expired beyond the tolerance', async () => {
    expect((await refusal(await idToken({ issuedAt: nowSeconds - 7200, expiresAt: nowSeconds - 3600 }))).reason).toBe('expired');
    await refusal(await idToken({ expiresAt: nowSeconds - 31 }));
  });

  it('refuses a token without an expiry', async () => {
    await refusal(await idToken({ omit: ['exp'] }));
  });

  it('refuses a token signed by another key under the same key id', async () => {
    expect((await refusal(await idToken({ key: strangerKey }))).reason).toBe('bad signature');
  });

  it('refuses a token signed by a key id the JWKS does not publish', async () => {
    expect((await refusal(await idToken({ key: strangerKey, kid: 'unknown-key' }))).reason).toBe('unknown signing key');
  });

  it('refuses a token whose payload was changed after signing', async () => {
    const [header, payload, signature] = (await idToken()).split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as JWTPayload;
    const forged = Buffer.from(JSON.stringify({ ...claims, email: 'kofi@example.com' })).toString('base64url');
    expect((await refusal(`${header}.${forged}.${signature}`)).reason).toBe('bad signature');
  });

  it('refuses a token signed with HS256 (no algorithm confusion)', async () => {
    const token = await new SignJWT({ iss: 'https://accounts.google.com', aud: CLIENT_ID, sub: '1', email: 'a@example.com', email_verified: true, iat: nowSeconds, exp: nowSeconds + 3600 })
      .setProtectedHeader({ alg: 'HS256', kid: KID })
      .sign(new TextEncoder().encode('a shared secret of at least thirty-two bytes'));
    expect((await refusal(token)).reason).toBe('algorithm not allowed');
  });

  it('refuses a token signed with ES256, even by a key the JWKS publishes', async () => {
    expect((await refusal(await idToken({ key: ecKey, kid: 'ec-key', alg: 'ES256' }))).reason).toBe('algorithm not allowed');
  });

  it('refuses an unsigned token (alg none)', async () => {
    const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const token = `${encode({ alg: 'none', typ: 'JWT' })}.${encode({ iss: 'https://accounts.google.com', aud: CLIENT_ID, sub: '1', email: 'a@example.com', email_verified: true, iat: nowSeconds, exp: nowSeconds + 3600 })}.`;
    await refusal(token);
  });

  it('refuses an unverified email', async () => {
    expect((await refusal(await idToken({ claims: { email_verified: false } }))).reason).toBe('email not verified');
    await refusal(await idToken({ omit: ['email_verified'] }));
    await refusal(await idToken({ claims: { email_verified: 'true' } }));
  });

  it('refuses a token without an email', async () => {
    expect((await refusal(await idToken({ omit: ['email'] }))).reason).toBe('no email');
  });

  it('refuses a token without a subject', async () => {
    await refusal(await idToken({ omit: ['sub'] }));
  });

  it.each([[''], ['garbage'], ['a.b.c'], [undefined], [42], ['x'.repeat(10_000)]])('refuses the malformed token %#', async (token) => {
    await refusal(token);
  });

  it('answers 503, not 401, when the key set cannot be fetched', async () => {
    const unreachable = createServer();
    await new Promise<void>((resolve) => unreachable.listen(0, '127.0.0.1', resolve));
    const port = (unreachable.address() as AddressInfo).port;
    await new Promise<void>((resolve) => unreachable.close(() => resolve()));
    const error = await verifier({ jwksUrl: `http://127.0.0.1:${port}/certs` })
      .verify(await idToken())
      .catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(IdentityProviderUnavailableError);
    expect(error).toMatchObject({ code: 'SERVICE_UNAVAILABLE', status: 503 });
  });

  it('answers 503 when the key set URL answers something other than 200', async () => {
    const error = await verifier({ jwksUrl: jwksUrl.replace('/oauth2/v3/certs', '/missing') })
      .verify(await idToken())
      .catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(IdentityProviderUnavailableError);
  });

  it('refuses to be built without an audience', () => {
    expect(() => new GoogleIdTokenVerifier({ audiences: [], jwksUrl })).toThrow(/audience/);
    expect(() => new GoogleIdTokenVerifier({ audiences: [''], jwksUrl })).toThrow(/audience/);
  });
});
