import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the fake Khaya server saw it. */
export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

export type KhayaBehaviour = (request: SeenRequest, response: ServerResponse) => void;

/**
 * A local server speaking the Khaya API's shape (docs/adr/0021): translation
 * answers a JSON string, speech a JSON string, errors APIM's
 * `{statusCode, message}` with Retry-After. Tests swap `behaviour` to make it
 * fail, stall or redirect. Only the subscription key `KEY` is accepted.
 */
export class KhayaTestServer {
  static readonly KEY = 'test-khaya-subscription-key';
  readonly seen: SeenRequest[] = [];
  behaviour: KhayaBehaviour = khayaLike;
  private server?: Server;
  private readonly open = new Set<ServerResponse>();

  async start(): Promise<string> {
    this.server = createServer((incoming, response) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () => {
        const request = { method: incoming.method ?? '', url: incoming.url ?? '', headers: incoming.headers, body: Buffer.concat(chunks) };
        this.seen.push(request);
        this.open.add(response);
        response.on('close', () => this.open.delete(response));
        this.behaviour(request, response);
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    for (const response of this.open) response.destroy();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

/** What Khaya answers when all is well: a made-up but recognisable translation or transcript. */
export const khayaLike: KhayaBehaviour = (request, response) => {
  if (request.headers['ocp-apim-subscription-key'] !== KhayaTestServer.KEY) {
    return json(response, 401, { statusCode: 401, message: 'Access denied due to invalid subscription key. Make sure to provide a valid key for an active subscription.' });
  }
  if (request.method === 'POST' && request.url === '/v1/translate') {
    const { in: text, lang } = JSON.parse(request.body.toString('utf8')) as { in: string; lang: string };
    return json(response, 200, `[${lang}] ${text}`);
  }
  if (request.method === 'POST' && request.url?.startsWith('/asr/v1/transcribe?language=')) {
    return json(response, 200, `transcript of ${request.body.length} bytes of ${request.headers['content-type']}`);
  }
  json(response, 404, { statusCode: 404, message: 'Resource not found' });
};

export function json(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers }).end(JSON.stringify(body));
}
