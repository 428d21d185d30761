import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';

export const ARRIVAL_PATH = '/v2/navigation/arrival';

/**
 * POST /v2/navigation/arrival answers 204 and never 400 (interface.md), even
 * for a body that is not JSON or not JSON at all: before parsing, its body is
 * read (bounded) and replaced by itself when it is a JSON object, by `{}`
 * otherwise, and declared application/json. Every other route is untouched.
 */
export function registerArrivalBody(fastify: FastifyInstance, maxBytes: number): void {
  fastify.addHook('preParsing', async (request, _reply, payload) => {
    if (request.method !== 'POST' || request.routeOptions.url !== ARRIVAL_PATH) return payload;
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of payload as AsyncIterable<Buffer | string>) {
      const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      size += buffer.length;
      if (size <= maxBytes) chunks.push(buffer);
    }
    let text = '{}';
    if (size <= maxBytes) {
      const raw = Buffer.concat(chunks).toString('utf8');
      try {
        const parsed: unknown = JSON.parse(raw);
        if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) text = raw;
      } catch {
        // Not JSON: kept as an empty arrival.
      }
    }
    request.headers['content-type'] = 'application/json';
    request.headers['content-length'] = String(Buffer.byteLength(text));
    delete request.headers['transfer-encoding'];
    return Readable.from([Buffer.from(text)]);
  });
}
