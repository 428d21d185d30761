import { afterAll, beforeAll, expect, it } from '@jest/globals';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { describeInBrowser } from './support/browser.js';
import { bootService, type Service } from './support/boot.js';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
interface OpenApiDocument {
  paths: Record<string, Record<string, { operationId?: string; tags?: string[] }>>;
  tags?: Array<{ name: string }>;
}

/**
 * Issue 28, item 5: the reference page at /docs, Redoc from node_modules over
 * the served document, under a strict CSP, in Debian's chromium. It must draw
 * every tag and every operation of the document, and the browser must report
 * no error and no CSP violation while it does.
 */
describeInBrowser('/docs', 'GET /docs in a real browser (Redoc, chromium via puppeteer-core)', (browserPath) => {
  let service: Service;
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];
  const violations: string[] = [];
  const offOrigin: string[] = [];

  beforeAll(async () => {
    service = await bootService();
    browser = await puppeteer.launch({ executablePath: browserPath, headless: true, args: ['--no-sandbox', '--window-size=1200,800'] });
    page = await browser.newPage();
    page.on('pageerror', (error) => errors.push(String(error)));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
      // Chromium reports a CSP refusal on the console ("Refused to load/apply/execute … Content Security Policy").
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    page.on('request', (request) => {
      const url = request.url();
      if (!url.startsWith(service.url) && !url.startsWith('data:') && !url.startsWith('blob:')) offOrigin.push(url);
    });
    // A listener in the page sees every violation, console message or not.
    await page.evaluateOnNewDocument(
      "window.cspViolations = []; document.addEventListener('securitypolicyviolation', (event) => window.cspViolations.push(event.violatedDirective + ' ' + event.blockedURI));",
    );
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await service?.close();
  }, 60_000);

  it('serves the page, its scripts and the guides without a key, under a same-origin CSP without eval', async () => {
    const response = await fetch(`${service.url}/docs`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/html');
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self';");
    expect(csp).not.toContain('unsafe-eval');
    expect(csp).not.toMatch(/https?:/);
    const html = await response.text();
    const guides = [...html.matchAll(/href="(\/docs\/guides\/[a-z0-9-]+\.md)"/g)].map((match) => match[1]);
    expect(guides.length).toBeGreaterThan(5);
    for (const guide of guides) {
      const answer = await fetch(`${service.url}${guide}`);
      expect([guide, answer.status, answer.headers.get('content-type')]).toEqual([guide, 200, 'text/markdown; charset=utf-8']);
      expect(await answer.text()).toMatch(/^# /);
    }
    const script = await fetch(`${service.url}/docs/assets/redoc.standalone.js`);
    expect(script.headers.get('content-type')).toContain('javascript');
    expect((await fetch(`${service.url}/docs/assets/..%2Fpackage.json`)).status).toBe(404);
    expect((await fetch(`${service.url}/docs/guides/..%2F..%2FREADME.md`)).status).toBe(404);
  });

  it('draws every tag and every operation of the served document, with no console error and no CSP violation', async () => {
    const document = (await (await fetch(`${service.url}/v2/openapi.json`)).json()) as OpenApiDocument;
    const operations: string[] = [];
    const operationIds = new Set<string>();
    const tags = new Set<string>();
    for (const [route, item] of Object.entries(document.paths)) {
      for (const method of METHODS) {
        const operation = item[method];
        if (!operation) continue;
        operations.push(`${method.toUpperCase()} ${route}`);
        operationIds.add(operation.operationId ?? `${method.toUpperCase()} ${route} (no operationId)`);
        for (const tag of operation.tags ?? []) tags.add(tag);
      }
    }
    expect(operations.length).toBeGreaterThan(50);
    expect(operationIds.size).toBe(operations.length);

    await page.goto(`${service.url}/docs`);
    await page.waitForSelector('body[data-ready]', { timeout: 120_000 }).catch((error: Error) => {
      throw new Error(`${error.message}; errors: ${errors.join(' | ')}`);
    });
    expect(await page.$eval('body', (body) => body.dataset.ready)).toBe('true');

    // Redoc gives each operation's section `[tag/<tag>/]operation/<operationId>`, and each tag's `tag/<tag>`.
    const drawn = await page.$$eval('[data-section-id*="operation/"]', (sections) => sections.map((section) => section.getAttribute('data-section-id') ?? ''));
    const drawnOperations = new Set(drawn.map((id) => id.slice(id.indexOf('operation/') + 'operation/'.length)));
    const drawnTags = new Set(
      await page.$$eval('[data-section-id^="tag/"]', (sections) =>
        sections.map((section) => section.getAttribute('data-section-id') ?? '').filter((id) => !id.includes('/operation/')),
      ),
    );
    expect([...drawnOperations].sort()).toEqual([...operationIds].sort());
    expect(drawnTags.size).toBe(tags.size);
    // The menu lists them too.
    expect(await page.$$eval('[role=menu] [data-item-id*="operation/"]', (items) => items.length)).toBeGreaterThanOrEqual(operationIds.size);

    const inPage = (await page.evaluate('window.cspViolations')) as string[];
    expect({ errors, violations, inPage, offOrigin }).toEqual({ errors: [], violations: [], inPage: [], offOrigin: [] });
  }, 180_000);
});
