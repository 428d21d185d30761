import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SSRF_URL_FORMS } from '../testing/ssrf-forms.js';
import type { HostResolver, ResolvedAddress } from './host-resolver.js';
import { UrlGuard, WebhookUrlNotAllowedError, WebhookUrlUnresolvableError } from './url-guard.js';
import { WebhookTransport } from './webhook-transport.js';

/** A DNS server in a box: answers from a table the test changes between calls. */
class ScriptedResolver implements HostResolver {
  readonly answers = new Map<string, ResolvedAddress[]>();
  calls = 0;
  async resolve(hostname: string): Promise<ResolvedAddress[]> {
    this.calls++;
    const answer = this.answers.get(hostname);
    if (!answer) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return answer;
  }
}

interface Received {
  host?: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

describe('webhook transport', () => {
  let server: http.Server;
  let port: number;
  const received: Received[] = [];
  let reply: (response: http.ServerResponse) => void = (response) => response.writeHead(204).end();

  beforeAll(async () => {
    server = http.createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      request.on('end', () => {
        received.push({ host: request.headers.host, headers: request.headers, body });
        reply(response);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => {
    received.length = 0;
    reply = (response) => response.writeHead(204).end();
  });

  it('connects to exactly the address it checked: a name only the injected resolver knows reaches the local receiver', async () => {
    const resolver = new ScriptedResolver();
    resolver.answers.set('hooks.receiver.test', [{ address: '127.0.0.1', family: 4 }]);
    const transport = new WebhookTransport(new UrlGuard(resolver, true), 2000);
    const result = await transport.post(new URL(`http://hooks.receiver.test:${port}/in?x=1`), { 'X-Webhook-Event': 'drift' }, '{"a":1}');
    expect(result).toMatchObject({ status_code: 204, error: null });
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ host: `hooks.receiver.test:${port}`, body: '{"a":1}' });
    expect(received[0].headers).toMatchObject({ 'x-webhook-event': 'drift', 'content-type': 'application/json' });
  });

  it('refuses at delivery time a name that resolved to a public address when configured and to loopback now (DNS rebinding)', async () => {
    const resolver = new ScriptedResolver();
    const guard = new UrlGuard(resolver, false);
    const url = new URL(`http://rebind.receiver.test:${port}/in`);
    resolver.answers.set('rebind.receiver.test', [{ address: '93.184.216.34', family: 4 }]);
    await expect(guard.target(url)).resolves.toEqual({ address: '93.184.216.34', family: 4 });

    resolver.answers.set('rebind.receiver.test', [{ address: '127.0.0.1', family: 4 }]);
    const transport = new WebhookTransport(guard, 2000);
    const result = await transport.post(url, {}, '{}');
    expect(result).toMatchObject({ status_code: null, error: 'address_refused' });
    expect(received).toHaveLength(0);
  });

  it.each(SSRF_URL_FORMS)('refuses at delivery time %s as %s, as a literal and as what a name resolves to, and sends nothing', async (form, reason) => {
    const literal = new URL(form);
    const resolver = new ScriptedResolver();
    const bare = literal.hostname.startsWith('[') ? literal.hostname.slice(1, -1) : literal.hostname;
    resolver.answers.set('rebound.receiver.test', [{ address: bare, family: bare.includes(':') ? 6 : 4 }]);
    const transport = new WebhookTransport(new UrlGuard(resolver, false), 2000);
    const byName = new URL(literal.href.replace(literal.host, `rebound.receiver.test:${port}`));
    for (const url of [literal, byName]) {
      expect(await transport.post(url, {}, '{}')).toMatchObject({ status_code: null, error: 'address_refused' });
      await expect(new UrlGuard(resolver, false).target(url)).rejects.toMatchObject({ reason });
    }
    expect(received).toHaveLength(0);
  });

  it('refuses a name when any of its addresses is private, and loopback or mapped literals', async () => {
    const resolver = new ScriptedResolver();
    resolver.answers.set('mixed.receiver.test', [
      { address: '93.184.216.34', family: 4 },
      { address: '10.0.0.7', family: 4 },
    ]);
    const guard = new UrlGuard(resolver, false);
    await expect(guard.target(new URL('https://mixed.receiver.test/'))).rejects.toMatchObject({ reason: 'private' });
    await expect(guard.target(new URL('http://127.0.0.1/'))).rejects.toBeInstanceOf(WebhookUrlNotAllowedError);
    await expect(guard.target(new URL('http://[::ffff:127.0.0.1]/'))).rejects.toMatchObject({ reason: 'loopback' });
    await expect(guard.target(new URL('http://0x7f.1/'))).rejects.toMatchObject({ reason: 'loopback' });
    await expect(guard.target(new URL('http://[fd00::1]/'))).rejects.toMatchObject({ reason: 'unique_local' });
    await expect(guard.target(new URL('http://nowhere.receiver.test/'))).rejects.toBeInstanceOf(WebhookUrlUnresolvableError);
    expect(resolver.calls).toBe(2); // literals are never looked up
  });

  it('does not follow redirects: a 3xx is a failed attempt and the target is not asked', async () => {
    reply = (response) => response.writeHead(302, { location: `http://127.0.0.1:${port}/elsewhere` }).end();
    const transport = new WebhookTransport(new UrlGuard(new ScriptedResolver(), true), 2000);
    const result = await transport.post(new URL(`http://127.0.0.1:${port}/in`), {}, '{}');
    expect(result).toMatchObject({ status_code: 302, error: null });
    expect(received).toHaveLength(1);
  });

  it('gives up on a receiver that does not answer within the time-out', async () => {
    reply = () => undefined; // never answers
    const transport = new WebhookTransport(new UrlGuard(new ScriptedResolver(), true), 200);
    const result = await transport.post(new URL(`http://127.0.0.1:${port}/slow`), {}, '{}');
    expect(result).toMatchObject({ status_code: null, error: 'timeout' });
    expect(result.duration_ms).toBeGreaterThanOrEqual(150);
  });

  it('classifies a refused connection', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const transport = new WebhookTransport(new UrlGuard(new ScriptedResolver(), true), 2000);
    expect(await transport.post(new URL(`http://127.0.0.1:${closedPort}/`), {}, '{}')).toMatchObject({ status_code: null, error: 'connection_refused' });
  });
});
