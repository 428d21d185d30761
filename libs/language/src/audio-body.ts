import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AudioTooLargeError, UnsupportedAudioError } from './domain/errors.js';

/** The one route that takes a body other than JSON. */
export const TRANSCRIBE_PATH = '/v2/language/transcribe';

type Done = (error: Error | null, body?: unknown) => void;

/**
 * Request bodies are JSON everywhere (the platform's parser; anything else is
 * 415), except the audio of POST /v2/language/transcribe. This parser takes
 * `audio/*` bodies on that route only — any other route answers 415 before
 * reading a byte — as raw bytes, bounded by LANGUAGE_AUDIO_MAX_BYTES: a
 * declared Content-Length over it is refused at once, a body that grows past
 * it is cut off (413, connection closed). Registered on the Fastify instance
 * by the language module before the server listens.
 */
export function registerAudioBodyParser(fastify: FastifyInstance, maxBytes: number): void {
  fastify.addContentTypeParser(/^audio\//, (request: FastifyRequest, payload: NodeJS.ReadableStream, done: Done) => {
    if (request.routeOptions.url !== TRANSCRIBE_PATH || request.method !== 'POST') {
      done(new UnsupportedAudioError('only POST /v2/language/transcribe takes audio; send application/json'));
      return;
    }
    const declared = Number(request.headers['content-length']);
    if (declared > maxBytes) {
      done(new AudioTooLargeError(maxBytes));
      return;
    }
    readBounded(payload, maxBytes, declared, done);
  });
}

function readBounded(payload: NodeJS.ReadableStream, maxBytes: number, declared: number, done: Done): void {
  const chunks: Buffer[] = [];
  let size = 0;
  let settled = false;
  const finish = (error: Error | null, body?: Buffer) => {
    if (settled) return;
    settled = true;
    payload.removeListener('data', onData);
    payload.removeListener('end', onEnd);
    payload.removeListener('error', onError);
    done(error, body);
  };
  const onData = (chunk: Buffer | string) => {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    size += bytes.length;
    if (size > maxBytes) finish(new AudioTooLargeError(maxBytes));
    else chunks.push(bytes);
  };
  const onEnd = () => {
    if (!Number.isNaN(declared) && size !== declared) {
      finish(Object.assign(new Error('the body is shorter than its Content-Length'), { statusCode: 400, code: 'FST_ERR_CTP_INVALID_CONTENT_LENGTH' }));
      return;
    }
    finish(null, Buffer.concat(chunks, size));
  };
  const onError = (error: Error) => finish(Object.assign(error, { statusCode: 400 }));
  payload.on('data', onData);
  payload.on('end', onEnd);
  payload.on('error', onError);
  payload.resume();
}
