import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config/config.js';
import type { JsonLogger } from '../logging/json-logger.js';
import { failure } from './envelope.js';
import { IllFormedTextError, isWellFormedText } from './json-body.js';

/**
 * What the service answers before a request reaches a route: malformed HTTP
 * and time-outs (Node's `clientError`), URLs the router cannot decode, and
 * request bodies in a content coding. decisions.md: every answer, errors
 * included, is in the envelope — these too (issue #10).
 */

/** Longest path parameter the router takes (find-my-way's maxParamLength); longer is 414. */
export const MAX_PARAM_LENGTH = 500;

type ErrorAnswer = { status: number; code: string; message: string; field?: string };

/**
 * Node's `clientError`: the request could not be parsed or did not arrive in
 * time, so no Fastify request exists and the answer is written on the socket
 * as Node itself would (only when nothing of another answer was written on it
 * yet), then the connection is closed.
 */
export function clientErrorHandler(config: Config, logger: JsonLogger) {
  return (error: Error & { code?: string }, socket: Duplex): void => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const answer = describeClientError(error.code, config);
    const requestId = randomUUID();
    // Never the error itself: its rawPacket holds the client's bytes, X-API-Key included.
    logger.access({ request_id: requestId, status: answer.status, code: answer.code, reason: error.code, ip: (socket as { remoteAddress?: string }).remoteAddress });
    const inFlight = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (socket.writable && !inFlight?.headersSent) {
      const body = JSON.stringify(failure(answer.code, answer.message, { request_id: requestId }));
      socket.write(
        `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status]}\r\n` +
          'Content-Type: application/json; charset=utf-8\r\n' +
          `Content-Length: ${Buffer.byteLength(body)}\r\n` +
          `X-Request-Id: ${requestId}\r\n` +
          'Connection: close\r\n\r\n' +
          body,
      );
    }
    socket.destroy(error);
  };
}

function describeClientError(code: string | undefined, config: Config): ErrorAnswer {
  switch (code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return {
        status: 408,
        code: 'REQUEST_TIMEOUT',
        message: `the request did not arrive in time: headers are due within ${config.headersTimeoutMs} ms, the whole request within ${config.requestTimeoutMs} ms`,
      };
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, code: 'HEADERS_TOO_LARGE', message: 'the request line and headers exceed 16 KiB' };
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return { status: 413, code: 'PAYLOAD_TOO_LARGE', message: 'the chunk extensions of the request body are too large' };
    default:
      return { status: 400, code: 'MALFORMED_REQUEST', message: 'the request is not well-formed HTTP/1.1' };
  }
}

/**
 * What Node answers itself, outside any Fastify request, and answered empty or
 * not at all before issue 31 (item 5): `Expect` other than `100-continue`
 * (Node's 417 with no body) and `CONNECT` (Node destroyed the socket). Both
 * now get the envelope. The missing `Host` is refused in the request hook
 * (`refuseMissingHost`): Node's own check (requireHostHeader) answered an
 * empty 400 and is turned off where the server is made.
 */
export function installRawRefusals(server: Server, logger: JsonLogger): void {
  server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => {
    const requestId = randomUUID();
    logger.access({ request_id: requestId, method: request.method, status: 417, code: 'EXPECTATION_FAILED', ip: request.socket.remoteAddress });
    const body = JSON.stringify(failure('EXPECTATION_FAILED', 'the only expectation this server meets is Expect: 100-continue', { field: 'expect', request_id: requestId }));
    response.writeHead(417, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
      'x-request-id': requestId,
      connection: 'close',
    });
    response.end(body);
  });
  server.on('connect', (request: IncomingMessage, socket: Duplex) => {
    const requestId = randomUUID();
    logger.access({ request_id: requestId, method: request.method, status: 405, code: 'METHOD_NOT_ALLOWED', ip: request.socket.remoteAddress });
    const body = JSON.stringify(failure('METHOD_NOT_ALLOWED', 'CONNECT is not allowed: this server is not a proxy', { request_id: requestId }));
    socket.on('error', () => undefined);
    socket.end(
      `HTTP/1.1 405 ${STATUS_CODES[405]}\r\n` +
        'Allow: GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS\r\n' +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-Id: ${requestId}\r\n` +
        'Connection: close\r\n\r\n' +
        body,
    );
  });
}

/**
 * RFC 9112 §3.2: an HTTP/1.1 request without exactly one Host is 400. Answers
 * the request and returns true, or false to let it through.
 */
export function refuseMissingHost(request: FastifyRequest, reply: FastifyReply): boolean {
  if (request.raw.httpVersion !== '1.1') return false;
  const host = request.raw.headersDistinct?.host;
  if (host?.length === 1) return false;
  void reply
    .status(400)
    .header('connection', 'close')
    .send(failure('MALFORMED_REQUEST', 'an HTTP/1.1 request needs exactly one Host header', { field: 'host', request_id: String(request.id) }));
  return true;
}

/**
 * Fastify's `frameworkErrors`: the router refuses the URL before any hook runs
 * (a %-escape that does not decode to UTF-8 in a path parameter, or a
 * parameter over MAX_PARAM_LENGTH). The request id is set here because the
 * `onRequest` hook that usually sets it does not run.
 */
export function frameworkErrorHandler(logger: JsonLogger) {
  return (error: Error & { code?: string }, request: FastifyRequest, reply: FastifyReply): void => {
    const answer = describeFrameworkError(error.code);
    if (answer.status >= 500) logger.error({ msg: 'router failed', request_id: request.id, err: String(error) });
    void reply
      .status(answer.status)
      .header('x-request-id', request.id)
      .header('content-type', 'application/json; charset=utf-8')
      .send(failure(answer.code, answer.message, { ...(answer.field ? { field: answer.field } : {}), request_id: String(request.id) }));
  };
}

function describeFrameworkError(code: string | undefined): ErrorAnswer {
  switch (code) {
    case 'FST_ERR_BAD_URL':
      return { status: 400, code: 'INVALID_PARAM', message: 'the path holds a %-escape that is not valid UTF-8', field: 'path' };
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return { status: 414, code: 'URI_TOO_LONG', message: `a path parameter is longer than ${MAX_PARAM_LENGTH} characters` };
    default:
      return { status: 500, code: 'INTERNAL_ERROR', message: 'internal error' };
  }
}

/**
 * Request bodies are taken as sent, never decompressed: a decoder would need
 * its own output bound (a few kB of gzip inflate to gigabytes) and no client
 * of this API needs it for bodies of at most 1 MiB. So any coding but
 * `identity` on a request with a body is 415, with `Accept-Encoding:
 * identity` as RFC 9110 §15.5.16 asks. Answers the request and returns true,
 * or false to let it through.
 */
export function refuseEncodedBody(request: FastifyRequest, reply: FastifyReply): boolean {
  const header = request.headers['content-encoding'];
  if (header === undefined || !hasBody(request)) return false;
  const codings = String(header)
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');
  if (codings.length === 0) return false;
  void reply
    .status(415)
    .header('accept-encoding', 'identity')
    .send(
      failure('UNSUPPORTED_MEDIA_TYPE', `request bodies are not accepted in a content coding (got ${codings.join(', ').slice(0, 64)}); send the JSON uncompressed`, {
        field: 'content-encoding',
        request_id: String(request.id),
      }),
    );
  return true;
}

function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * The query and path parameters hold well-formed text (as the JSON body
 * parser checks for the body): a lone surrogate makes validators throw.
 * Fastify's decoders refuse the UTF-8 spelling of one today; this keeps it so
 * whatever decodes them. Returns the error for the first bad parameter.
 */
export function illFormedParameter(request: FastifyRequest): IllFormedTextError | undefined {
  for (const source of [request.params, request.query]) {
    if (source === null || typeof source !== 'object') continue;
    for (const [name, value] of Object.entries(source as Record<string, unknown>)) {
      const values = Array.isArray(value) ? value : [value];
      if (!isWellFormedText(name) || values.some((item) => typeof item === 'string' && !isWellFormedText(item))) {
        return new IllFormedTextError(isWellFormedText(name) ? name : 'query');
      }
    }
  }
  return undefined;
}
