import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { bootService, type Service } from './support/boot.js';
import { data, json, signUp } from './support/http.js';

/** Issue 26, item 5 (docs/adr/0032): consent records a customer could show a regulator, and their signed receipts. */
const root = path.resolve(import.meta.dirname, '..');
const ISSUER = 'https://consent.example.test';
const NOTICE_TEXT = 'Ama Lending will use your phone location to support loan collections until you revoke. Act 843.';
const NOTICE_SHA = createHash('sha256').update(NOTICE_TEXT, 'utf8').digest('hex');

interface Receipt {
  token: string;
  kid: string;
  typ: string;
  jwks_url: string;
}

describe('consent records and receipts over HTTP', () => {
  let service: Service;
  let jwksFile: string;

  beforeAll(async () => {
    service = await bootService({ env: { PUBLIC_BASE_URL: ISSUER } });
  });
  afterAll(async () => {
    await service?.close();
  });

  const verify = async (token: string, ...extra: string[]) => {
    if (!jwksFile) {
      const jwks = await (await service.request('GET', '/v2/.well-known/jwks.json')).json();
      jwksFile = path.join(mkdtempSync(path.join(tmpdir(), 'consent-jwks-')), 'jwks.json');
      writeFileSync(jwksFile, JSON.stringify(jwks));
    }
    const run = await promisify(execFile)(process.execPath, ['scripts/verify-consent-receipt.mjs', jwksFile, token, ...extra], { cwd: root }).then(
      ({ stdout }) => ({ code: 0, stdout }),
      (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
    );
    return { code: run.code, result: JSON.parse(run.stdout) as { valid: boolean; reason?: string; claims?: Record<string, unknown> } };
  };

  it('answers a grant with a receipt that verifies offline against the JWKS (scripts/verify-consent-receipt.mjs); a tampered one does not', async () => {
    const key = await signUp(service, 'Ama');
    const capturedAt = new Date(Date.now() - 60_000).toISOString();
    const granted = await service.request('POST', '/v2/consent/grant', {
      key,
      body: { customer_id: 'cust-1', purpose: 'loan_collections', notice: { version: '2026-11-v3', sha256: NOTICE_SHA, language: 'tw' }, channel: 'ussd', captured_at: capturedAt, proof: { kind: 'otp', reference: 'otp-tx-778812' } },
    });
    expect(granted.status).toBe(200);
    const grant = await data<{ consent_id: string; notice: unknown; channel: string; captured_at: string; proof: unknown; granted_at: string; receipt: Receipt }>(granted);
    expect(grant).toMatchObject({ status: 'granted', purpose: 'loan_collections', notice: { version: '2026-11-v3', sha256: NOTICE_SHA, language: 'tw' }, channel: 'ussd', captured_at: capturedAt, proof: { kind: 'otp', reference: 'otp-tx-778812' } });
    expect(grant.receipt).toMatchObject({ typ: 'consent-receipt+jwt', jwks_url: `${ISSUER}/v2/.well-known/jwks.json` });

    const checked = await verify(grant.receipt.token, '--issuer', ISSUER, '--notice-sha256', NOTICE_SHA);
    expect(checked.code).toBe(0);
    expect(checked.result).toMatchObject({
      valid: true,
      claims: {
        iss: ISSUER,
        version: 'KI-CR-v1.1.0',
        jurisdiction: 'GH',
        consentReceiptID: grant.consent_id,
        consentTimestamp: Math.floor(Date.parse(capturedAt) / 1000),
        collectionMethod: 'ussd',
        language: 'tw',
        piiPrincipalId: 'cust-1',
        services: [{ service: 'location_monitoring', purposes: [{ purpose: 'loan_collections', piiCategory: ['location'], consentType: 'EXPLICIT' }] }],
        receipt_event: 'granted',
        notice: { version: '2026-11-v3', sha256: NOTICE_SHA, language: 'tw' },
        capture: { channel: 'ussd', captured_at: capturedAt, recorded_at: grant.granted_at, proof: { kind: 'otp', reference: 'otp-tx-778812' }, proof_verified: false },
      },
    });

    // A claim changed after signing: refused. Another notice than the one signed: refused.
    const [header, body, signature] = grant.receipt.token.split('.');
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Record<string, unknown>;
    const tampered = `${header}.${Buffer.from(JSON.stringify({ ...claims, collectionMethod: 'app' })).toString('base64url')}.${signature}`;
    expect(await verify(tampered)).toEqual({ code: 1, result: expect.objectContaining({ valid: false, reason: 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED' }) });
    expect(await verify(grant.receipt.token, '--notice-sha256', 'f'.repeat(64))).toEqual({ code: 1, result: expect.objectContaining({ valid: false, reason: 'ERR_NOTICE_MISMATCH' }) });

    // Repeating the grant answers the standing one, with the same consent id.
    const repeated = await data<{ consent_id: string; receipt: Receipt }>(
      await service.request('POST', '/v2/consent/grant', {
        key,
        body: { customer_id: 'cust-1', purpose: 'loan_collections', notice: { version: '2026-11-v3', sha256: NOTICE_SHA, language: 'tw' }, channel: 'ussd', captured_at: capturedAt, proof: { kind: 'otp', reference: 'otp-tx-778812' } },
      }),
    );
    expect(repeated.consent_id).toBe(grant.consent_id);

    // Revocation and erasure get receipts of their own, naming the same consent.
    const revoked = await data<{ receipt: Receipt; revoked_at: string; consent_id: string }>(await service.request('POST', '/v2/consent/revoke', { key, body: { customer_id: 'cust-1' } }));
    expect(revoked.consent_id).toBe(grant.consent_id);
    expect((await verify(revoked.receipt.token, '--issuer', ISSUER)).result).toMatchObject({ valid: true, claims: { receipt_event: 'revoked', status: 'revoked', consentReceiptID: grant.consent_id, revoked_at: revoked.revoked_at, jti: `${grant.consent_id}.revoked` } });
    const erased = await data<{ receipt: Receipt; erased_at: string; events_erased: number }>(await service.request('POST', '/v2/consent/delete-data', { key, body: { customer_id: 'cust-1' } }));
    expect((await verify(erased.receipt.token)).result).toMatchObject({ valid: true, claims: { receipt_event: 'erased', consentReceiptID: grant.consent_id, erased_at: erased.erased_at, events_erased: erased.events_erased } });
  });

  it('keeps grants without the new fields working: unspecified notice and channel, still receipted', async () => {
    const key = await signUp(service, 'Kofi');
    const grant = await data<{ notice: unknown; channel: string; captured_at: null; proof: null; consent_id: string; receipt: Receipt }>(await service.request('POST', '/v2/consent/grant', { key, body: { customer_id: 'old-style' } }));
    expect(grant).toMatchObject({ purpose: 'unspecified', notice: { version: 'unspecified', sha256: null, language: 'unspecified' }, channel: 'unspecified', captured_at: null, proof: null });
    expect((await verify(grant.receipt.token)).result).toMatchObject({ valid: true, claims: { collectionMethod: 'unspecified', notice: { version: 'unspecified', sha256: null }, capture: { proof: null } } });
  });

  it('refuses a capture time before the account existed and a proof reference outside printable ASCII, naming the field; nothing is granted or signed (docs/adr/0059)', async () => {
    const key = await signUp(service, 'Esi');
    const grant = (body: Record<string, unknown>) => service.request('POST', '/v2/consent/grant', { key, body: { customer_id: 'lax', channel: 'app', ...body } });
    const refusals: Array<[Record<string, unknown>, string]> = [
      [{ captured_at: '1970-01-01T00:00:00Z' }, 'captured_at'],
      // The account was opened just now: ten minutes earlier is beyond the five minutes of clock skew allowed.
      [{ captured_at: new Date(Date.now() - 10 * 60_000).toISOString() }, 'captured_at'],
      ...['otp\u0000nul', 'otp\r\nX-Forged: yes', 'otp\u2028separated', 'otp\u2029', 'otp\ttab', ' otp', 'otp ', 'otp-é', ''].map((reference): [Record<string, unknown>, string] => [{ proof: { kind: 'otp', reference } }, 'proof.reference']),
    ];
    for (const [body, field] of refusals) {
      const response = await grant(body);
      const error = (await json<{ error: { code: string; field: string; message: string } }>(response)).error;
      expect([JSON.stringify(body), response.status, error.code, error.field]).toEqual([JSON.stringify(body), 400, 'INVALID_PARAM', field]);
    }
    expect((await json<{ error: { message: string } }>(await grant({ captured_at: '1970-01-01T00:00:00Z' }))).error.message).toMatch(/before this account was opened/);
    expect((await data<{ status: string }>(await service.request('GET', '/v2/consent/status?customer_id=lax', { key }))).status).toBe('none');

    // Printable ASCII with inner spaces is taken, and signed as sent.
    const granted = await data<{ receipt: Receipt }>(await grant({ captured_at: new Date(Date.now() - 60_000).toISOString(), proof: { kind: 'device_signature', reference: 'MEUCIQDx+/9= key 7' } }));
    expect((await verify(granted.receipt.token)).result).toMatchObject({ valid: true, claims: { capture: { proof: { kind: 'device_signature', reference: 'MEUCIQDx+/9= key 7' } } } });
  });

  it('refuses a bad channel, notice hash, proof kind or a capture time in the future with 400 naming the field', async () => {
    const key = await signUp(service, 'Yaw');
    const grant = (body: Record<string, unknown>) => service.request('POST', '/v2/consent/grant', { key, body: { customer_id: 'c', ...body } });
    for (const [body, field] of [
      [{ channel: 'fax' }, 'channel'],
      [{ notice: { version: 'v1', sha256: 'abc', language: 'en' } }, 'sha256'],
      [{ notice: { version: 'v1', sha256: NOTICE_SHA } }, 'language'],
      [{ proof: { kind: 'selfie', reference: 'x' } }, 'kind'],
      [{ captured_at: 'yesterday' }, 'captured_at'],
      [{ captured_at: new Date(Date.now() + 3_600_000).toISOString() }, 'captured_at'],
    ] as const) {
      const response = await grant(body);
      expect([field, response.status]).toEqual([field, 400]);
      expect(JSON.stringify(await json(response))).toContain(field);
    }
  });
});
