import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { BodyOverBudgetError } from '../../platform/src/index.js';

export const ARRIVAL_PATH = '/v2/navigation/arrival';

/**
 * POST /v2/navigation/arrival answers 204 and never 400 (interface.md), even
 * for a body that is not JSON or not JSON at all: before parsing, its body is
 * read (bounded) and replaced by itself when it is a JSON object, by `{}`
 * otherwise, and declared application/json. Every other route is untouched.
 * A body over `maxBytes` (BODY_LIMIT_BYTES) is 413, in the envelope, with the
 * connection closed (issue 47): on its declared length before a byte is read,
 * a chunked one as soon as it grows past it (it used to be read to its end
 * and taken as `{}`).
 */
export function registerArrivalBody(fastify: FastifyInstance, maxBytes: number): void {
  fastify.addHook('preParsing', async (request, reply, payload) => {
    if (request.method !== 'POST' || request.routeOptions.url !== ARRIVAL_PATH) return payload;
    if (Number(request.headers['content-length']) > maxBytes) throw tooLarge(reply, maxBytes);
    const body = await readUpTo(payload, maxBytes);
    if (body === undefined) throw tooLarge(reply, maxBytes);
    let text = '{}';
    const raw = body.toString('utf8');
    try {
      const parsed: unknown = JSON.parse(raw);
      if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) text = raw;
    } catch {
      // Not JSON: kept as an empty arrival.
    }
    request.headers['content-type'] = 'application/json';
    request.headers['content-length'] = String(Buffer.byteLength(text));
    delete request.headers['transfer-encoding'];
    return Readable.from([Buffer.from(text)]);
  });
}

function tooLarge(reply: FastifyReply, maxBytes: number): BodyOverBudgetError {
  void reply.header('connection', 'close');
  return new BodyOverBudgetError(maxBytes);
}

/** The body, or undefined as soon as it grows past `maxBytes` (then nothing more of it is read). */
function readUpTo(payload: NodeJS.ReadableStream, maxBytes: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = (body: Buffer | undefined, error?: unknown) => {
      payload.removeListener('data', onData);
      payload.removeListener('end', onEnd);
      payload.removeListener('error', onError);
      if (error) reject(error);
      else resolve(body);
    };
    const onData = (chunk: Buffer | string) => {
      const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      size += buffer.length;
      if (size <= maxBytes) return void chunks.push(buffer);
      payload.pause();
      settle(undefined);
    };
    const onEnd = () => settle(Buffer.concat(chunks, size));
    const onError = (error: unknown) => settle(undefined, error);
    payload.on('data', onData);
    payload.on('end', onEnd);
    payload.on('error', onError);
  });
}
