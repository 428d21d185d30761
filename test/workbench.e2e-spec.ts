import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import puppeteer, { type Browser, type HTTPResponse, type Page } from 'puppeteer-core';
import { describeInBrowser } from './support/browser.js';
import { ADMIN_KEY, bootService, eventually, type Service } from './support/boot.js';
import { data } from './support/http.js';

const root = path.resolve(import.meta.dirname, '..');
/** Screenshots of each view, kept by CI (test-artifacts/ is ignored by git). */
const ARTIFACTS = path.join(root, 'test-artifacts', 'workbench');
const PASSWORD = 'Adinkra-Sankofa-2026';
const CUSTOMER = 'amina-001';
const HOME = { lat: 5.5497, lng: -0.2107 };
const MARKET = { lat: 5.6037, lng: -0.187 };

interface Me {
  account_id: string;
  key_prefix: string;
}

/**
 * Issue 51, the compliance workbench, in Debian's chromium: a banking user
 * signs in, opens a customer with consent, pings over three days, a drift
 * alert, a geofence alert, a verification and webhooks; reads the story, the
 * as-of view, who looked; exports and verifies; then, after a revocation and
 * an erasure, reads them again; and cannot reach another account's customer.
 */
describeInBrowser('workbench', 'GET /workbench in a real browser (chromium via puppeteer-core)', (browserPath) => {
  let service: Service;
  let browser: Browser;
  let page: Page;
  let receiver: http.Server;
  const received: string[] = [];
  const pageErrors: string[] = [];
  const responses: Array<{ url: string; status: number }> = [];
  let bank: { key: string; email: string; me: Me };
  let downloads: string;
  let jwksFile: string;
  /** When the last ping was recorded, and an instant between the two batches of pings. */
  let lastPingAt: string;
  let betweenBatches: string;

  async function bankingAccount(name: string): Promise<{ key: string; email: string; me: Me }> {
    const email = `${name.toLowerCase().replace(/\W+/g, "-")}-${Math.random().toString(36).slice(2)}@example.com`;
    const signup = await service.request('POST', '/v2/self/signup', { body: { name, email } });
    if (signup.status !== 201) throw new Error(`signup: ${signup.status} ${await signup.text()}`);
    const key = (await data<{ key: string }>(signup)).key;
    const me = await data<Me>(await service.request('GET', '/v2/me', { key }));
    expect((await service.request('POST', `/v2/admin/accounts/${me.account_id}/banking`, { key: ADMIN_KEY, body: { enabled: true } })).status).toBe(200);
    expect((await service.request('PUT', `/v2/admin/accounts/${me.account_id}/tier`, { key: ADMIN_KEY, body: { tier: 'enterprise' } })).status).toBe(200);
    return { key, email, me };
  }

  async function call(method: string, url: string, key: string, body?: unknown): Promise<Record<string, unknown>> {
    const response = await service.request(method, url, { key, body });
    if (response.status >= 300) throw new Error(`${method} ${url}: ${response.status} ${await response.text()}`);
    return data(response);
  }

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    downloads = mkdtempSync(path.join(tmpdir(), 'workbench-downloads-'));
    service = await bootService({ env: { AUDIT_CHECKPOINT_INTERVAL_S: '0', WEBHOOK_RETRY_DELAYS_MS: '0' } });
    receiver = http.createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      request.on('end', () => {
        received.push(body);
        response.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));

    bank = await bankingAccount('Kumasi Microcredit');
    const { key } = bank;
    expect((await service.request('POST', '/v2/me/password', { key, body: { password: PASSWORD } })).status).toBe(200);
    await call('POST', '/v2/webhooks/configure', key, { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`, secret: 'whsec_workbench_0123456789', event_types: ['drift', 'geofence_breach', 'consent_revoked'] });
    await call('POST', '/v2/consent/grant', key, { customer_id: CUSTOMER, purpose: 'loan_collections', channel: 'agent' });
    await call('PUT', `/v2/monitoring/zones/${CUSTOMER}`, key, { ...HOME, tolerance_hops: 2 });
    await call('POST', '/v2/geofence/create', key, { fence_type: 'circle', center: MARKET, radius_m: 400, customer_id: CUSTOMER, name: 'Makola market' });
    // A proximity verification at home, with its certificate (before any ping: no earlier fix to flag it against).
    const reverse = (await call('GET', `/v2/reverse?lat=${HOME.lat}&lng=${HOME.lng}`, key)) as { code: string };
    const proximity = (await call('POST', '/v2/verify/proximity', key, { customer_id: CUSTOMER, address: reverse.code, ...HOME, accuracy_m: 10 })) as { decision: string; certificate: unknown };
    expect(proximity.decision).toBe('within');
    expect(proximity.certificate).toBeTruthy();
    // Pings in two batches after the grant: three at home, then (a moment later) two more, the last at the market, out of
    // the zone: a drift and a geofence alert. `betweenBatches` is an instant when only the first three were known.
    const at = (offset: number) => new Date(Date.now() + offset).toISOString();
    const first = [HOME, { lat: HOME.lat + 0.0004, lng: HOME.lng }, { lat: HOME.lat, lng: HOME.lng + 0.0004 }].map((point, index) => ({ customer_id: CUSTOMER, ...point, recorded_at: at(index * 10) }));
    expect(((await call('POST', '/v2/monitoring/pings', key, { pings: first })) as { accepted: number }).accepted).toBe(3);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    betweenBatches = new Date().toISOString();
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const second = [{ ...HOME, recorded_at: at(0) }, { ...MARKET, accuracy_m: 12, recorded_at: at(10) }].map((ping) => ({ customer_id: CUSTOMER, ...ping }));
    expect(((await call('POST', '/v2/monitoring/pings', key, { pings: second })) as { accepted: number }).accepted).toBe(2);
    lastPingAt = second[1].recorded_at;
    const drift = (await call('GET', `/v2/monitoring/drift?customer_id=${CUSTOMER}`, key)) as { status: string };
    expect(drift.status).toBe('drifting');
    // The drift and the geofence alerts reach the receiver.
    await eventually(async () => (received.length >= 2 ? true : undefined), 20_000);
    // Enough calls that the account's access log has more than one page of 50.
    for (let index = 0; index < 40; index++) await call('GET', '/v2/me', key);

    const jwks = await (await service.request('GET', '/v2/.well-known/jwks.json')).json();
    jwksFile = path.join(downloads, '..', `workbench-jwks-${process.pid}.json`);
    writeFileSync(jwksFile, JSON.stringify(jwks));

    browser = await puppeteer.launch({
      executablePath: browserPath,
      headless: true,
      // WebGL without a GPU: SwiftShader. No sandbox: CI runs as root in a container.
      args: ['--no-sandbox', '--enable-unsafe-swiftshader', '--use-angle=swiftshader', '--window-size=1280,800'],
      downloadBehavior: { policy: 'allow', downloadPath: downloads },
    });
    page = await browser.newPage();
    await page.setViewport({ width: 1280, height: 800 });
    page.on('pageerror', (error) => pageErrors.push(String(error)));
    page.on('response', (response: HTTPResponse) => {
      if (response.url().includes('/v2/')) responses.push({ url: response.url(), status: response.status() });
    });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await service?.close();
    await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
    rmSync(downloads, { recursive: true, force: true });
    if (jwksFile) rmSync(jwksFile, { force: true });
  }, 60_000);

  const text = (selector: string) => page.$eval(selector, (element) => element.textContent ?? '');
  const shot = (name: string) => page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`) as `${string}.png`, fullPage: true });
  /** Waits for the selector's text to match, naming what the page says instead when it does not. */
  async function until(selector: string, pattern: RegExp, timeout = 30_000): Promise<string> {
    try {
      await page.waitForFunction(`new RegExp(${JSON.stringify(pattern.source)}).test(document.querySelector(${JSON.stringify(selector)})?.textContent ?? '')`, { timeout });
    } catch (error) {
      throw new Error(`${(error as Error).message}: ${selector} never matched ${pattern}; it says "${await text(selector).catch(() => '?')}"; status "${await text('#status').catch(() => '?')}"; errors: ${pageErrors.join(' | ')}`);
    }
    return text(selector);
  }
  /** Runs `act`, then waits until the page has finished the loads it started. */
  async function settled(act: () => Promise<unknown>): Promise<void> {
    const before = Number(await page.evaluate("document.body.dataset.loads ?? '0'"));
    await act();
    await page.waitForFunction(`Number(document.body.dataset.loads ?? 0) > ${before} && document.body.dataset.busy === 'false'`, { timeout: 60_000 });
  }
  async function timeline(): Promise<Array<{ kind: string; at: string; text: string }>> {
    return page.$$eval('#timeline > li', (items) => items.map((item) => ({ kind: item.getAttribute('data-kind') ?? '', at: item.getAttribute('data-at') ?? '', text: item.textContent ?? '' })));
  }
  async function setValue(selector: string, value: string) {
    await page.$eval(selector, (element, v) => {
      (element as unknown as { value: string }).value = v;
    }, value);
  }
  /** Accra is at GMT: the datetime-local value of an instant is its UTC wall time, to the second. */
  const accraInput = (iso: string) => iso.slice(0, 19);
  async function replayAt(iso: string) {
    await setValue('#asof-at', accraInput(iso));
    await page.click('#asof-form button[type=submit]');
  }
  async function positions(): Promise<string[][]> {
    return page.$$eval('#asof-positions tbody tr', (rows) => rows.map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent ?? '')));
  }
  async function accessRows(): Promise<string[]> {
    return page.$$eval('#access-table tbody tr', (rows) => rows.map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent ?? '').join(' | ')));
  }
  function verifyWithTool(file: string): string {
    const run = spawnSync(process.execPath, [path.join(root, 'tools/verify-audit-bundle.mjs'), file, jwksFile], { encoding: 'utf8' });
    return run.stdout.trim();
  }
  async function downloaded(prefix: string): Promise<string> {
    const name = await eventually(async () => readdirSync(downloads).find((file) => file.startsWith(prefix) && file.endsWith('.json')), 20_000);
    return path.join(downloads, name);
  }

  it('serves the page without a key, with a same-origin CSP, its assets from the service', async () => {
    const response = await fetch(`${service.url}/workbench`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/html');
    expect(response.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect((await fetch(`${service.url}/workbench/assets/workbench-verify.js`)).headers.get('content-type')).toContain('javascript');
    expect((await fetch(`${service.url}/workbench/assets/maplibre-gl.mjs`)).status).toBe(200);
    expect((await fetch(`${service.url}/workbench/assets/..%2Fworkbench.controller.ts`)).status).toBe(404);
  });

  it('signs in with e-mail and password as a banking user; the page works under the personal token', async () => {
    await page.goto(`${service.url}/workbench`);
    await page.waitForSelector('body[data-ready="true"]');
    await shot('1-sign-in');
    await page.type('#login-email', bank.email);
    await page.type('#login-password', PASSWORD);
    await page.type('#login-key', bank.key);
    await page.click('#login-form button[type=submit]');
    const identity = await until('#identity', /personal token/);
    expect(identity).toContain(bank.me.account_id);
    expect(identity).toMatch(/with personal token [0-9a-f]{8}… of user usr_/);
    // Neither the password nor the key stays in the form.
    expect(await page.$eval('#login-password', (input) => (input as unknown as { value: string }).value)).toBe('');
    expect(await page.$eval('#login-key', (input) => (input as unknown as { value: string }).value)).toBe('');
    expect(await page.evaluate('Object.keys(localStorage).length + Object.keys(sessionStorage).length')).toBe(0);
    // The account's customers, from GET /v2/consents.
    await until('#customer-list', new RegExp(CUSTOMER));
  }, 60_000);

  it("tells the customer's story: the timeline's entries in order, each with its evidence and signatures", async () => {
    await settled(async () => {
      await page.type('#customer-id', CUSTOMER);
      await page.keyboard.press('Enter');
    });
    const entries = await timeline();
    const kinds = entries.map((entry) => entry.kind);
    // Oldest first, each entry's time no earlier than the one before it.
    const times = entries.map((entry) => Date.parse(entry.at));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(kinds[0]).toBe('consent_granted');
    expect(entries[0].text).toMatch(/Consent granted.*loan_collections.*channel agent/);
    expect(kinds.indexOf('zone_registered')).toBeGreaterThan(0);
    expect(kinds.indexOf('geofence_created')).toBeGreaterThan(0);
    // Pings as a daily density (Accra days): today's five.
    const days = entries.filter((entry) => entry.kind === 'pings');
    expect(days.map((entry) => /(\d+) pings? recorded on (.+? \d{4})/.exec(entry.text)?.slice(1))).toEqual([['5', new Intl.DateTimeFormat('en-GB', { timeZone: 'Africa/Accra', weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' }).format(new Date(lastPingAt))]]);
    expect(await page.$$eval('#timeline meter', (meters) => meters.map((meter) => (meter as unknown as { value: number }).value))).toEqual([5]);
    expect(kinds.indexOf('pings')).toBeGreaterThan(kinds.indexOf('zone_registered'));
    // The drift and geofence alerts came with the last ping, the webhooks were delivered after them; the verification came before the pings.
    const lastDay = kinds.lastIndexOf('pings');
    expect(kinds.indexOf('drift_started')).toBeGreaterThan(lastDay);
    expect(kinds.indexOf('geofence_entered')).toBeGreaterThan(lastDay);
    expect(entries.find((entry) => entry.kind === 'geofence_entered')?.text).toContain('Makola market');
    expect(kinds.indexOf('verification')).toBeGreaterThan(kinds.indexOf('geofence_created'));
    expect(kinds.indexOf('verification')).toBeLessThan(kinds.indexOf('pings'));
    const webhooks = entries.filter((entry) => entry.kind === 'webhook');
    expect(webhooks.map((entry) => /Webhook (\S+)/.exec(entry.text)?.[1]).sort()).toEqual(['drift', 'geofence_breach']);
    expect(webhooks.every((entry) => /delivered after 1 attempt/.test(entry.text))).toBe(true);
    expect(kinds).not.toContain('consent_revoked');
    expect(kinds).not.toContain('data_erased');
    expect(await text('#story-state')).toMatch(/^Consent granted on .* GMT for loan_collections\.$/);
    // The copy behind the timeline is signed, and the page checked it with the JWKS; so the verification's certificate.
    expect(await text('#story-summary')).toMatch(/✓ its signature verifies with this service's public keys \(kid .+\)/);
    const verification = await page.$('#timeline > li[data-kind=verification] details summary');
    await verification!.focus();
    await page.keyboard.press('Enter');
    expect(await page.$eval('#timeline > li[data-kind=verification] details', (details) => (details as unknown as { open: boolean }).open)).toBe(true);
    expect(await text('#timeline > li[data-kind=verification] details')).toMatch(/Certificate: ✓ proximity-certificate\+jwt, signature verifies/);
    // Times in Africa/Accra (GMT), the UTC instant on hover.
    const first = await page.$eval('#timeline > li time', (time) => ({ text: time.textContent, title: time.getAttribute('title'), at: time.getAttribute('datetime') }));
    expect(first.text).toMatch(/^\d{1,2} [A-Z][a-z]{2} \d{4}, \d\d:\d\d:\d\d GMT$/);
    expect(first.title).toBe(`${new Date(first.at!).toISOString().replace('T', ' ').replace('Z', '')} UTC`);
    await shot('2-story');
  }, 90_000);

  it('replays the customer as of an instant, with where they were known to be', async () => {
    // By keyboard: from the first tab, the arrow key moves to the next.
    await page.focus('#tab-story');
    await page.keyboard.press('ArrowRight');
    expect(await page.$eval('#tab-asof', (tab) => tab.getAttribute('aria-selected'))).toBe('true');
    expect(await page.evaluate('document.activeElement?.id')).toBe('tab-asof');
    // Now: every ping, the last known at the market.
    await until('#asof-state', /Consent granted at this instant; last known position recorded/);
    let rows = await positions();
    expect(rows).toHaveLength(5);
    expect(rows[0].slice(1, 3)).toEqual(['5.60370', '-0.18700']);
    expect(await text('#asof-facts')).toMatch(/Consentgranted for loan_collections \(scope location\) since/);
    expect(await text('#asof-facts')).toContain('Makola market (circle)');
    // Between the two batches: the first three pings only (known means received by then); later entries dimmed.
    await replayAt(betweenBatches);
    await page.waitForFunction("document.querySelectorAll('#asof-positions tbody tr').length === 3", { timeout: 30_000 });
    rows = await positions();
    expect(rows.map((row) => `${row[1]} ${row[2]}`)).toEqual(['5.54970 -0.21030', '5.55010 -0.21070', '5.54970 -0.21070']);
    expect(await text('#asof-facts')).toMatch(/Timeline\d+ of \d+ entries had happened/);
    expect(await page.$$eval('#timeline > li.after', (items) => items.length)).toBeGreaterThan(0);
    // The map drew (or said why not): its canvas is there.
    await page.waitForSelector('#asof-map canvas, #asof-map .notice', { timeout: 30_000 });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await replayAt(new Date().toISOString());
    await page.waitForFunction("document.querySelectorAll('#asof-positions tbody tr').length === 5", { timeout: 30_000 });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await shot('3-as-of-before-erasure');
  }, 90_000);

  it("shows who looked: the customer's access log and the account's, naming the page's own calls, with filters and paging", async () => {
    const token = /personal token ([0-9a-f]{8}…)/.exec(await text('#identity'))![1];
    await page.click('#tab-access');
    // The access log's read model follows the chain: ask again until the page's own calls have reached it.
    const rows = await eventually(async () => {
      await settled(() => page.click('#access-form button[type=submit]'));
      const found = await accessRows();
      return found.some((row) => row.includes(`POST /v2/consent/access-request`) && row.includes(token)) ? found : undefined;
    }, 30_000);
    // About this customer: the page's copy request and consent status, under the token; the lender's own calls by its key.
    expect(rows.every((row) => row.includes(`| ${CUSTOMER} |`))).toBe(true);
    expect(rows.some((row) => row.includes(`GET /v2/consent/status`) && row.includes(`personal token ${token}`))).toBe(true);
    expect(rows.some((row) => row.includes(`PUT /v2/monitoring/zones/${CUSTOMER}`) && row.includes(`account key ${bank.me.key_prefix}`))).toBe(true);
    expect(rows.some((row) => row.includes('POST /v2/monitoring/pings'))).toBe(true);
    expect(rows.some((row) => row.includes('GET /v2/me'))).toBe(false);
    expect(await text('#access-caption')).toMatch(new RegExp(`^Accesses about ${CUSTOMER}: \\d+ shown of \\d+ on page 1, newest first$`));

    // The whole account: 50 a page, older pages behind a cursor.
    await settled(() => page.click('input[name=access-scope][value=account]'));
    const first = await accessRows();
    expect(first).toHaveLength(50);
    expect(await page.$eval('#access-older', (button) => (button as unknown as { disabled: boolean }).disabled)).toBe(false);
    expect(first.some((row) => row.includes(`GET /v2/banking/audit-log/customers/${CUSTOMER}`) && row.includes(token))).toBe(true);
    await settled(() => page.click('#access-older'));
    const second = await accessRows();
    expect(second.length).toBeGreaterThan(0);
    expect(second[0]).not.toBe(first[0]);
    expect(await text('#access-page')).toBe('Page 2');
    await settled(() => page.click('#access-newer'));
    // Page 1 again (newest first: the page's own calls since are on it now).
    expect(await text('#access-page')).toBe('Page 1');
    expect(await accessRows()).toHaveLength(50);
    expect(await page.$eval('#access-newer', (button) => (button as unknown as { disabled: boolean }).disabled)).toBe(true);
    // Filters: only the token's calls.
    await page.select('#access-who', token);
    const mine = await accessRows();
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((row) => row.includes(`personal token ${token}`))).toBe(true);
    await page.select('#access-who', '');
    await page.select('#access-status', '4');
    expect((await accessRows()).every((row) => / \| 4\d\d \| /.test(row))).toBe(true);
    await page.select('#access-status', '');
    await page.click('input[name=access-scope][value=customer]');
    await page.waitForFunction("document.querySelector('#access-caption')?.textContent?.startsWith('Accesses about')", { timeout: 30_000 });
    await shot('4-who-looked');
  }, 120_000);

  it('exports the audit bundle and verifies it in the page as the offline tool does; a tampered bundle is refused naming the entry', async () => {
    await page.click('#tab-handover');
    await page.click('#export-form button[type=submit]');
    const verdict = await until('#export-result', /(OK|BAD)/);
    const file = await downloaded('audit-bundle-');
    const tool = verifyWithTool(file);
    expect(tool).toMatch(/^OK access_log-acct_\w+: \d+ entries verified \(\d+ in range\), \d+ signed checkpoints; signed to its last entry$/);
    expect(await text('#export-verdict')).toBe(tool);
    expect(verdict).toContain(tool);

    // The same file dropped onto the page (chosen with the file input): the same verdict.
    const input = await page.$('#verify-file');
    await input!.uploadFile(file);
    expect(await until('#verify-result', /^(OK|BAD)/)).toBe(tool);

    // One entry edited: both refuse it, naming the same entry.
    const bundle = JSON.parse(readFileSync(file, 'utf8')) as { entries: Array<{ seq: number; status: number; request_id: string; at: string }> };
    const victim = Math.floor(bundle.entries.length / 2);
    bundle.entries[victim].status = bundle.entries[victim].status === 200 ? 204 : 200;
    const tampered = path.join(downloads, 'tampered.json');
    writeFileSync(tampered, JSON.stringify(bundle));
    const refused = verifyWithTool(tampered);
    const { seq, request_id, at } = bundle.entries[victim];
    expect(refused).toBe(`BAD: entry #${victim} (seq ${seq}, request ${request_id}, at ${at}): hash mismatch (the entry was edited)`);
    await input!.uploadFile(tampered);
    expect(await until('#verify-result', /^BAD/)).toBe(refused);
    expect(await page.$eval('#verify-detail tr.culprit', (row) => row.textContent ?? '')).toContain(request_id);
    await shot('5-hand-it-over');

    // The customer's copy, with one click: saved, and its signature checked.
    await page.click('#copy-download');
    expect(await until('#copy-result', /Saved/)).toMatch(/✓ signature verifies/);
    const copy = JSON.parse(readFileSync(await downloaded(`customer-copy-${CUSTOMER}-`), 'utf8')) as { document: { customer_id: string }; jws: string };
    expect(copy.document.customer_id).toBe(CUSTOMER);
    expect(copy.jws.split('.')).toHaveLength(3);
  }, 90_000);

  it("prints a report of the customer's copy that says what it holds and how to verify it", async () => {
    // No print dialog in the test: the page's call to print() is counted instead.
    await page.evaluate('window.printed = 0; window.print = () => { window.printed++; }');
    await page.click('#copy-print');
    await page.waitForFunction('window.printed === 1', { timeout: 10_000 });
    await page.emulateMediaType('print');
    try {
      expect(await page.evaluate("getComputedStyle(document.querySelector('#report')).display")).toBe('block');
      expect(await page.evaluate("getComputedStyle(document.querySelector('main')).display")).toBe('none');
      const report = await text('#report');
      expect(report).toContain(`Customer's copy: ${CUSTOMER}`);
      expect(report).toContain('What this copy contains');
      expect(report).toMatch(/5 ping\(s\) on 1 day\(s\)/);
      expect(report).toMatch(/SHA-256 of its JWS: [0-9a-f]{64}/);
      expect(report).toContain('How to verify it');
      expect(report).toMatch(/When printed: ✓ the signature verified with kid/);
      await page.pdf({ path: path.join(ARTIFACTS, '6-report.pdf'), format: 'A4' });
    } finally {
      await page.emulateMediaType('screen');
    }
  }, 60_000);

  it('after a revocation and an erasure: the story ends with them, and as of any instant no position is held', async () => {
    await call('POST', '/v2/consent/revoke', bank.key, { customer_id: CUSTOMER });
    // The lender hears of the revocation (its webhook) before it erases.
    await eventually(async () => (received.some((body) => body.includes('"consent_revoked"')) ? true : undefined), 20_000);
    await call('POST', '/v2/consent/delete-data', bank.key, { customer_id: CUSTOMER });
    await page.click('#tab-story');
    await settled(() => page.click('#customer-form button[type=submit]'));
    const entries = await timeline();
    const kinds = entries.map((entry) => entry.kind);
    expect(kinds[0]).toBe('consent_granted');
    // The revocation, then the erasure, last. Erased with the location history: the pings, the alerts, and the listing of
    // the webhook deliveries that named the customer (docs/guides/webhooks.md); the verification's decision stays.
    expect(kinds.slice(-2)).toEqual(['consent_revoked', 'data_erased']);
    expect(kinds).toContain('verification');
    expect(kinds).not.toContain('webhook');
    expect(kinds).not.toContain('pings');
    expect(kinds).not.toContain('drift_started');
    expect(entries.at(-1)!.text).toMatch(/Location data erased.*\d+ events destroyed/);
    const times = entries.map((entry) => Date.parse(entry.at));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(await text('#story-state')).toMatch(/^Erased on .* GMT: the location history was destroyed/);
    await shot('7-story-after-erasure');

    await page.click('#tab-asof');
    // The instant of the last ping, before the erasure: the consent stood then, but no position is held any more.
    await replayAt(new Date(Date.parse(lastPingAt) + 1000).toISOString());
    await until('#asof-facts', /Consentgranted for loan_collections/);
    expect(await until('#asof-state', /^Erased on/)).toMatch(/no position is held, for this instant or any other/);
    expect(await positions()).toEqual([]);
    // Now: revoked and erased; what changed in between (GET /v2/compliance/changes), the customer's marked.
    await replayAt(new Date().toISOString());
    expect(await until('#asof-facts', /Consentrevoked .* and the location data erased/)).toBeTruthy();
    expect(await positions()).toEqual([]);
    expect(await until('#asof-changes-title', /What changed in the account between/)).toMatch(/: \d+ change\(s\), [1-9]\d* about amina-001$/);
    const changed = await page.$$eval('#asof-changes-list li.mine', (items) => items.map((item) => item.textContent ?? ''));
    expect(changed.some((item) => /consents: ConsentRevoked \(amina-001\)$/.test(item))).toBe(true);
    await shot('8-as-of-after-erasure');
  }, 90_000);

  it("cannot reach another account's customer: the API refuses and the page says so", async () => {
    const other = await bankingAccount('Other Lender');
    await call('POST', '/v2/consent/grant', other.key, { customer_id: 'kofi-b', purpose: 'loan_collections' });
    await call('POST', '/v2/monitoring/pings', other.key, { customer_id: 'kofi-b', ...MARKET });
    // The same id under this account: nothing of the other account's customer.
    await page.click('#tab-story');
    await setValue('#customer-id', 'kofi-b');
    await settled(() => page.click('#customer-form button[type=submit]'));
    expect(await text('#story-state')).toBe(
      `No record of customer kofi-b under your account (${bank.me.account_id}): no consent, no location history, no verification, no webhook. Customer ids are your account's own: another account's customers cannot be opened here.`,
    );
    expect(await timeline()).toEqual([]);
    // A link naming the other account: the replay is refused by the API (403 ACCOUNT_MISMATCH), and the page says so.
    const before = responses.length;
    await settled(() => page.evaluate(`location.hash = ${JSON.stringify(`#customer=kofi-b&account=${other.me.account_id}`)}`));
    expect(await text('#story-state')).toBe(`Customer kofi-b of account ${other.me.account_id} is not reachable: Refused by the API (403 ACCOUNT_MISMATCH): that is another account's. You can open only your own account's customers.`);
    expect(responses.slice(before).filter((response) => response.url.includes('/v2/compliance/as-of'))).toEqual([expect.objectContaining({ status: 403 })]);
    expect(responses.slice(before).some((response) => response.url.includes('access-request'))).toBe(false);
    await shot('9-another-account-refused');
  }, 60_000);

  it('is made for people: every control labelled, nothing wider than 1280 px, no script error', async () => {
    // Every control has a name a screen reader reads: a <label>, aria-label(ledby), or a button's own text.
    const unlabelled = await page.evaluate(`[...document.querySelectorAll('input, select, button, textarea')]
      .filter((control) => control.type !== 'hidden')
      .filter((control) => !(control.labels?.length > 0 || control.getAttribute('aria-label') || control.getAttribute('aria-labelledby') || (control.tagName === 'BUTTON' && control.textContent.trim())))
      .map((control) => control.id || control.outerHTML.slice(0, 80))`);
    expect(unlabelled).toEqual([]);
    for (const tab of ['story', 'asof', 'access', 'handover']) {
      await page.click(`#tab-${tab}`);
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(1280);
    }
    expect(pageErrors).toEqual([]);
  }, 60_000);
});
