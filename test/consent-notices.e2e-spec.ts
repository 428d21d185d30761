import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { bootService, type Service } from './support/boot.js';
import { data, json, signUp } from './support/http.js';

/**
 * Issue 50, item 2 (docs/adr/0059): a grant names its notice by its text (the
 * service hashes it) or, once the account registered it, by its version; the
 * existing `sha256` form keeps working and a hash that contradicts the
 * registry is refused.
 */
const root = path.resolve(import.meta.dirname, '..');
const ISSUER = 'https://notices.example.test';
const sha256 = (text: string) => createHash('sha256').update(Buffer.from(text, 'utf8')).digest('hex');

interface Failure {
  success: false;
  error: { code: string; message: string; field?: string; details?: Record<string, unknown> };
}
interface Grant {
  consent_id: string;
  notice: { version: string; sha256: string | null; language: string };
  receipt: { token: string };
}

describe('consent notices by text or by registry over HTTP', () => {
  let service: Service;
  let jwksFile: string;

  beforeAll(async () => {
    service = await bootService({ env: { PUBLIC_BASE_URL: ISSUER } });
  }, 60_000);
  afterAll(async () => {
    await service?.close();
  });

  /** The receipt's claims, once scripts/verify-consent-receipt.mjs found its signature good (and, given, the notice hash its). */
  const verifiedClaims = async (token: string, noticeSha?: string) => {
    if (!jwksFile) {
      const jwks = await (await service.request('GET', '/v2/.well-known/jwks.json')).json();
      jwksFile = path.join(mkdtempSync(path.join(tmpdir(), 'notice-jwks-')), 'jwks.json');
      writeFileSync(jwksFile, JSON.stringify(jwks));
    }
    const extra = noticeSha ? ['--notice-sha256', noticeSha] : [];
    const { stdout } = await promisify(execFile)(process.execPath, ['scripts/verify-consent-receipt.mjs', jwksFile, token, '--issuer', ISSUER, ...extra], { cwd: root });
    const result = JSON.parse(stdout) as { valid: boolean; claims: { notice: { version: string; sha256: string | null; language: string }; language: string } };
    expect(result.valid).toBe(true);
    return result.claims;
  };
  const grant = (key: string, body: Record<string, unknown>) => service.request('POST', '/v2/consent/grant', { key, body: { purpose: 'loan_collections', ...body } });
  const register = (key: string, version: string, body: Record<string, unknown>) => service.request('PUT', `/v2/consent/notices/${encodeURIComponent(version)}`, { key, body });
  const failure = async (response: Response) => ({ status: response.status, error: (await json<Failure>(response)).error });

  it('hashes a notice sent as text, signs the hash into the receipt, and keeps the text nowhere', async () => {
    const key = await signUp(service, 'TextLender');
    // A marker no other request sends: the byte scan below looks for it.
    const marker = `notice-marker-${Math.random().toString(36).slice(2)}`;
    const text = `Ama Lending will use your phone's location to support loan collections until you revoke.\r\nƐyɛ Act 843 — ${marker}\u2028end`;
    const response = await grant(key, { customer_id: 'cust-text', notice: { version: '2026-11-v3', language: 'en-GH', text }, channel: 'app' });
    expect(response.status).toBe(200);
    const granted = await data<Grant>(response);
    expect(granted.notice).toEqual({ version: '2026-11-v3', sha256: sha256(text), language: 'en-GH' });
    const claims = await verifiedClaims(granted.receipt.token, sha256(text));
    expect(claims.notice).toEqual({ version: '2026-11-v3', sha256: sha256(text), language: 'en-GH' });

    // The same grant as a hash is the same grant (no new consent id); a hash that is not the text's is refused.
    expect((await data<Grant>(await grant(key, { customer_id: 'cust-text', notice: { version: '2026-11-v3', language: 'en-GH', sha256: sha256(text) }, channel: 'app' }))).consent_id).toBe(granted.consent_id);
    const disagreeing = await failure(await grant(key, { customer_id: 'cust-text', notice: { version: '2026-11-v3', language: 'en-GH', text, sha256: sha256('other') } }));
    expect(disagreeing).toMatchObject({ status: 400, error: { code: 'INVALID_PARAM', field: 'notice.sha256' } });

    // Not in the grant's answer, the consent's status or list, nor in any byte of the data folder.
    const status = await (await service.request('GET', '/v2/consent/status?customer_id=cust-text', { key })).text();
    const list = await (await service.request('GET', '/v2/consents', { key })).text();
    expect([status, list, JSON.stringify(granted)].filter((body) => body.includes(marker))).toEqual([]);
    expect(filesContaining(service.dataDir, marker)).toEqual([]);
    // The scan can find a text where one is kept: a registered notice's, in the event log.
    const registeredMarker = `registered-marker-${Math.random().toString(36).slice(2)}`;
    expect((await register(key, 'scan-control', { language: 'en', text: `Kept once: ${registeredMarker}` })).status).toBe(200);
    expect(filesContaining(service.dataDir, registeredMarker)).toEqual(expect.arrayContaining([expect.stringMatching(/^events/)]));
  });

  it('refuses a notice text that is empty, over 64 KiB of UTF-8 or not Unicode, naming notice.text', async () => {
    const key = await signUp(service, 'BadText');
    for (const text of ['', 'ɛ'.repeat(32 * 1024 + 1), 'lone \ud800 surrogate']) {
      const refused = await failure(await grant(key, { customer_id: 'cust-bad-text', notice: { version: 'v1', language: 'en', text } }));
      expect(refused).toMatchObject({ status: 400, error: { code: 'INVALID_PARAM', field: 'notice.text' } });
    }
    expect((await data<{ status: string }>(await service.request('GET', '/v2/consent/status?customer_id=cust-bad-text', { key }))).status).toBe('none');
  });

  it('registers a notice once per version and language, lists it with its hash, and answers its text back', async () => {
    const key = await signUp(service, 'Registrar');
    const en = 'We will use your location for loan collections until you revoke.\nAct 843.';
    const tw = 'Yɛbɛfa wo beaeɛ ahwɛ wo bosea ho kosi sɛ wobɛtwe wo mpene.';
    const first = await register(key, 'loan-2026.11', { language: 'en-GH', text: en });
    expect(first.status).toBe(200);
    const registered = await data<{ sha256: string; bytes: number; outcome: string; registered_at: string }>(first);
    expect(registered).toMatchObject({ version: 'loan-2026.11', language: 'en-GH', sha256: sha256(en), bytes: Buffer.byteLength(en, 'utf8'), outcome: 'registered' });
    expect(await data(await register(key, 'loan-2026.11', { language: 'en-GH', text: en }))).toMatchObject({ outcome: 'unchanged', registered_at: registered.registered_at });
    expect(await data(await register(key, 'loan-2026.11', { language: 'tw', text: tw }))).toMatchObject({ outcome: 'registered', sha256: sha256(tw) });

    // A registered text never changes: another one under the same version and language is refused.
    const changed = await failure(await register(key, 'loan-2026.11', { language: 'en-gh', text: `${en} Amended.` }));
    expect(changed).toMatchObject({ status: 409, error: { code: 'NOTICE_VERSION_EXISTS', field: 'text', details: { registered_sha256: sha256(en) } } });
    expect(await failure(await register(key, 'loan 2026', { language: 'en', text: en }))).toMatchObject({ status: 400, error: { field: 'version' } });
    expect(await failure(await register(key, 'v2', { language: 'en', text: 'x'.repeat(64 * 1024 + 1) }))).toMatchObject({ status: 400, error: { field: 'text' } });
    expect(await failure(await register(key, 'v2', { language: 'en', text: en, sha256: sha256(en) }))).toMatchObject({ status: 400, error: { field: 'sha256' } });

    const list = await data<{ items: Array<Record<string, unknown>>; max_items: number }>(await service.request('GET', '/v2/consent/notices', { key }));
    expect(list.max_items).toBe(100);
    expect(list.items.map(({ version, language, sha256: hash }) => [version, language, hash])).toEqual([
      ['loan-2026.11', 'en-GH', sha256(en)],
      ['loan-2026.11', 'tw', sha256(tw)],
    ]);
    expect(list.items.every((item) => !('text' in item))).toBe(true);
    const texts = await data<{ items: Array<{ language: string; text: string; sha256: string }> }>(await service.request('GET', '/v2/consent/notices/loan-2026.11', { key }));
    expect(texts.items.map(({ language, text, sha256: hash }) => [language, text, hash])).toEqual([
      ['en-GH', en, sha256(en)],
      ['tw', tw, sha256(tw)],
    ]);
    expect(await failure(await service.request('GET', '/v2/consent/notices/never-registered', { key }))).toMatchObject({ status: 404, error: { code: 'NOTICE_NOT_FOUND' } });

    // Another account sees none of it.
    const other = await signUp(service, 'OtherRegistrar');
    expect(await data(await service.request('GET', '/v2/consent/notices', { key: other }))).toEqual({ items: [], max_items: 100 });
    expect((await service.request('GET', '/v2/consent/notices/loan-2026.11', { key: other })).status).toBe(404);
  });

  it('fills in the hash of a registered version, refuses a sha256 that disagrees with it, and keeps the sha256 form', async () => {
    const key = await signUp(service, 'RegistryLender');
    const text = 'Kofi Credit watches your location only while your loan is open. Revoke any time.';
    const twText = 'Kofi Credit hwɛ wo beaeɛ bere a wo bosea no da so nkutoo.';
    await register(key, 'kc-1', { language: 'en', text });

    const byVersion = await grant(key, { customer_id: 'cust-reg-1', notice: { version: 'kc-1' }, channel: 'ussd' });
    expect(byVersion.status).toBe(200);
    const granted = await data<Grant>(byVersion);
    expect(granted.notice).toEqual({ version: 'kc-1', sha256: sha256(text), language: 'en' });
    expect((await verifiedClaims(granted.receipt.token, sha256(text))).notice).toEqual({ version: 'kc-1', sha256: sha256(text), language: 'en' });
    // By its text, or by its right hash: the same notice.
    const byText = await data<Grant>(await grant(key, { customer_id: 'cust-reg-2', notice: { version: 'kc-1', language: 'en', text } }));
    expect((await verifiedClaims(byText.receipt.token)).notice).toEqual({ version: 'kc-1', sha256: sha256(text), language: 'en' });
    const byHash = await data<Grant>(await grant(key, { customer_id: 'cust-reg-3', notice: { version: 'kc-1', language: 'en', sha256: sha256(text) } }));
    expect(byHash.notice.sha256).toBe(sha256(text));

    // A sha256 (or a text) other than the registered one: refused, nothing granted.
    const wrongHash = await failure(await grant(key, { customer_id: 'cust-reg-4', notice: { version: 'kc-1', language: 'en', sha256: sha256('an older text') } }));
    expect(wrongHash).toMatchObject({ status: 422, error: { code: 'NOTICE_MISMATCH', field: 'notice.sha256', details: { registered_sha256: sha256(text), sha256: sha256('an older text') } } });
    expect(wrongHash.error.message).toMatch(/is not the SHA-256 of notice kc-1 \(en\) as registered/);
    const wrongText = await failure(await grant(key, { customer_id: 'cust-reg-4', notice: { version: 'kc-1', text: 'an older text' } }));
    expect(wrongText).toMatchObject({ status: 422, error: { code: 'NOTICE_MISMATCH', field: 'notice.text' } });
    expect((await data<{ status: string }>(await service.request('GET', '/v2/consent/status?customer_id=cust-reg-4', { key }))).status).toBe('none');

    // A version not registered and no hash or text; a version in two languages named without one.
    expect(await failure(await grant(key, { customer_id: 'cust-reg-5', notice: { version: 'kc-9', language: 'en' } }))).toMatchObject({
      status: 422,
      error: { code: 'NOTICE_NOT_REGISTERED', field: 'notice.version', message: expect.stringContaining('PUT /v2/consent/notices/kc-9') },
    });
    await register(key, 'kc-1', { language: 'tw', text: twText });
    expect(await failure(await grant(key, { customer_id: 'cust-reg-5', notice: { version: 'kc-1' } }))).toMatchObject({ status: 400, error: { code: 'INVALID_PARAM', field: 'notice.language' } });
    expect((await data<Grant>(await grant(key, { customer_id: 'cust-reg-5', notice: { version: 'kc-1', language: 'tw' } }))).notice.sha256).toBe(sha256(twText));

    // The sha256 form for a version the registry does not hold, as before; the same version under another account is not registered.
    const unregistered = await data<Grant>(await grant(key, { customer_id: 'cust-reg-6', notice: { version: 'paper-2019', sha256: sha256('paper'), language: 'en' } }));
    expect(unregistered.notice).toEqual({ version: 'paper-2019', sha256: sha256('paper'), language: 'en' });
    const other = await signUp(service, 'OtherLender');
    expect((await failure(await grant(other, { customer_id: 'cust-reg-1', notice: { version: 'kc-1' } }))).error.code).toBe('NOTICE_NOT_REGISTERED');
  });
});

/** Files under `dir` (recursively) whose bytes hold `needle`, relative to it. */
function filesContaining(dir: string, needle: string): string[] {
  const found: string[] = [];
  const walk = (at: string) => {
    for (const name of readdirSync(at)) {
      const file = path.join(at, name);
      if (statSync(file).isDirectory()) walk(file);
      else if (readFileSync(file).includes(Buffer.from(needle, 'utf8'))) found.push(path.relative(dir, file));
    }
  };
  walk(dir);
  return found;
}
