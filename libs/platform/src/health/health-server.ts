import { createServer, type Server } from 'node:http';
import type { Readiness } from './readiness.js';

/**
 * The worker serves no API, but an orchestrator still needs to ask it
 * (docs/adr/0033): with HEALTH_PORT set it answers GET /health, /health/ready
 * and /health/live as the api does, and nothing else (404), on a bare
 * node:http server with no body parsing.
 */
export async function serveHealth(readiness: Readiness, port: number, host: string): Promise<Server> {
  const server = createServer((request, response) => {
    const url = (request.url ?? '').split('?')[0];
    const reply = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
      response.end(JSON.stringify(body));
    };
    if (request.method !== 'GET' && request.method !== 'HEAD') return reply(405, { status: 'method_not_allowed' });
    if (url === '/health/live') return reply(200, { status: 'alive' });
    if (url === '/health' || url === '/health/ready') {
      readiness.answer({ ready: url === '/health/ready' }).then(
        (answer) => reply(answer.status, answer.body),
        () => reply(503, { status: 'unavailable' }),
      );
      return;
    }
    reply(404, { status: 'not_found' });
  });
  server.requestTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return server;
}
