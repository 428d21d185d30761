import { randomUUID } from 'node:crypto';
import type { DynamicModule, INestApplication, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { finishDocument } from './openapi/answer-document.js';
import { checkSchemaWriters } from './openapi/answer-writer.js';
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import FindMyWay from 'find-my-way';
import type { Config } from '../config/config.js';
import { JsonLogger } from '../logging/json-logger.js';
import { recordRequest } from '../metrics/metrics.js';
import { wrapInEnvelope } from './envelope.interceptor.js';
import { failure } from './envelope.js';
import { shedOverload } from './overload.js';
import { EnvelopeExceptionFilter } from './exception.filter.js';
import { clientErrorHandler, frameworkErrorHandler, illFormedParameter, installRawRefusals, MAX_PARAM_LENGTH, refuseEncodedBody, refuseMissingHost } from './http-edge.js';
import { boundedJsonParser, JSON_BODY_LIMITS, refuseOverBudget, type BodyParser } from './json-body.js';
import { createValidationPipe } from './validation.js';

/** Called for every response just before it is sent; may delay it (the audit append does). */
export type ResponseListener = (request: FastifyRequest, reply: FastifyReply) => Promise<void> | void;

/** Answers the request itself (e.g. 429) and returns true, or lets it through with false. */
export type RequestGate = (request: FastifyRequest, reply: FastifyReply) => Promise<boolean>;

export interface HttpApp {
  app: NestFastifyApplication;
  /**
   * Graceful stop: refuse new connections, answer in-flight requests with
   * `Connection: close`, and close keep-alive connections as they go idle.
   */
  stop(): Promise<void>;
  /** Registers a listener on every response (used by the access-audit recorder). */
  onResponse(listener: ResponseListener): void;
  /**
   * Registers a gate run on every request before routing to a handler (per-IP
   * throttles); it may answer the request itself, which ends it.
   */
  onRequest(gate: RequestGate): void;
}

export interface HttpAppOptions {
  /**
   * false: the answers of `@ApiAnswer(X, { serialise: true })` routes go through
   * JSON.stringify like every other (ADR 40); only `npm run bench -- hexcode`
   * turns them off, to measure them against the same service without them.
   * 'checked': on, and each written answer compared with JSON.stringify's
   * (a difference answers 500): the e2e harness's mode.
   */
  schemaWriters?: boolean | 'checked';
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/**
 * Nest installs its own not-found handler at init; ours also answers 405 with
 * `Allow` when the path exists under another method, which Nest's cannot know.
 */
class ConventionalFastifyAdapter extends FastifyAdapter {
  constructor(
    private readonly notFound: (request: FastifyRequest, reply: FastifyReply) => void,
    options: Record<string, unknown>,
  ) {
    super(options as never);
  }

  override setNotFoundHandler(): ReturnType<FastifyAdapter['setNotFoundHandler']> {
    return this.getInstance().setNotFoundHandler(this.notFound as never);
  }

  /** Nest sends every handler result through here: the envelope goes on (see wrapInEnvelope). */
  override reply(response: Parameters<FastifyAdapter['reply']>[0], body: unknown, statusCode?: number): ReturnType<FastifyAdapter['reply']> {
    return super.reply(response, wrapInEnvelope((response as Partial<FastifyReply>).request, body), statusCode);
  }
}

/**
 * Builds the Nest application on Fastify with the HTTP conventions every
 * endpoint shares: the envelope, one exception filter, the validation pipe,
 * 404/405 in the envelope, body limits and shapes, time-outs, request ids and
 * the OpenAPI document.
 */
export async function createHttpApp(module: Type<unknown> | DynamicModule, config: Config, logger: JsonLogger, options: HttpAppOptions = {}): Promise<HttpApp> {
  const notFound = (request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?')[0];
    const allowed = METHODS.filter((method) => routes.find(method, path) !== null);
    if (allowed.length > 0) {
      void reply
        .status(405)
        .header('allow', allowed.join(', '))
        .send(failure('METHOD_NOT_ALLOWED', `${request.method} is not allowed on ${path}; use ${allowed.join(', ')}`, { request_id: String(request.id) }));
      return;
    }
    void reply.status(404).send(failure('NOT_FOUND', `no route ${request.method} ${path}`, { request_id: String(request.id) }));
  };
  const adapter = new ConventionalFastifyAdapter(notFound, {
    bodyLimit: config.bodyLimitBytes,
    trustProxy: config.trustProxy,
    return503OnClosing: true,
    requestIdHeader: false,
    genReqId: (request: { headers: Record<string, string | string[] | undefined> }) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH },
    // Fastify's default of 0 disables Node's request time-out: a client trickling a declared body held its connection for ever.
    requestTimeout: config.requestTimeoutMs,
    http: {
      // Node checks headersTimeout ≤ requestTimeout when it creates the server, before Fastify sets the latter: both here.
      requestTimeout: config.requestTimeoutMs,
      headersTimeout: config.headersTimeoutMs,
      // Node checks both time-outs only this often (30 s by default), which would let a trickle run that long past its limit.
      connectionsCheckingInterval: Math.min(1000, Math.max(50, Math.floor(config.headersTimeoutMs / 10))),
      // Node's own Host check answers an empty 400; refuseMissingHost answers it in the envelope.
      requireHostHeader: false,
    },
    clientErrorHandler: clientErrorHandler(config, logger),
    frameworkErrors: frameworkErrorHandler(logger),
  });
  const fastify = adapter.getInstance() as FastifyInstance;
  // The bench's twin without the schema writers (ADR 40): every answer through JSON.stringify, as before them.
  if (options.schemaWriters === false) fastify.setSerializerCompiler(() => (data) => JSON.stringify(data));
  if (options.schemaWriters === 'checked') checkSchemaWriters(fastify);
  installRawRefusals(fastify.server, logger);
  // Request bodies are JSON (interface.md), anything else is 415. Nest's body parsers are off (`bodyParser: false`
  // below): its form parser took 1 MiB of `a0=&a1=&…` for 20 s of event loop; JSON goes through the bounded parser.
  fastify.removeContentTypeParser('text/plain');
  fastify.addContentTypeParser(
    'application/json',
    { parseAs: 'buffer', bodyLimit: config.bodyLimitBytes },
    boundedJsonParser(fastify.getDefaultJsonParser('error', 'error') as BodyParser<string>),
  );
  // First of the onRequest hooks: an overloaded process answers 503 SERVICE_BUSY before anything else (issue 48).
  await shedOverload(fastify, config.overload);
  const listeners: ResponseListener[] = [];
  const gates: RequestGate[] = [];
  const routes = FindMyWay();

  fastify.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if ((METHODS as readonly string[]).includes(method) && !routes.hasRoute(method as 'GET', route.url)) {
        routes.on(method as 'GET', route.url, () => undefined);
      }
    }
  });
  fastify.addHook('onRequest', async (request, reply) => {
    (request as { startedAt?: bigint }).startedAt = process.hrtime.bigint();
    // A number now, written as ISO text only where an access entry is made: most requests never need the text.
    request.receivedAt = Date.now();
    void reply.header('x-request-id', request.id);
    if (refuseMissingHost(request, reply)) return reply;
    if (refuseEncodedBody(request, reply)) return reply;
    for (const gate of gates) if (await gate(request, reply)) return reply;
    // A route's body budget on the declared length (the api's per-IP gate applies it first, after its refusal holds);
    // a JSON body over BODY_LIMIT_BYTES likewise, before any preParsing hook reads it (issue 47).
    if (refuseOverBudget(request, reply, config.bodyLimitBytes)) return reply;
  });
  fastify.addHook('preValidation', async (request, reply) => {
    const error = illFormedParameter(request);
    if (error) return reply.status(error.status).send(failure(error.code, error.message, { field: error.field, request_id: String(request.id) }));
  });
  let stopping = false;
  fastify.addHook('onSend', async (request, reply, payload) => {
    if (stopping) void reply.header('connection', 'close');
    try {
      for (const listener of listeners) await listener(request, reply);
      return payload;
    } catch (error) {
      // Fail closed: an answer that could not be audited is not given (the access trail must be complete).
      logger.error({ msg: 'response listener failed; answering 503', request_id: request.id, err: String(error) });
      void reply.status(503).header('content-type', 'application/json; charset=utf-8');
      return JSON.stringify(failure('AUDIT_UNAVAILABLE', 'the access could not be recorded; try again', { request_id: String(request.id) }));
    }
  });
  const counted = new WeakSet<FastifyRequest>();
  const countAnswer = (request: FastifyRequest, status: number) => {
    if (counted.has(request)) return;
    counted.add(request);
    const started = (request as { startedAt?: bigint }).startedAt;
    const durationMs = started ? Number(process.hrtime.bigint() - started) / 1e6 : undefined;
    recordRequest(request.method, request.routeOptions.url, status, (durationMs ?? 0) / 1000);
    logger.access({
      request_id: request.id,
      method: request.method,
      // The route's pattern (`/v2/monitoring/zones/:customer_id`), not the path: a log line never names a customer,
      // so an erasure leaves nothing to find in the logs (docs/guides/monitoring.md, "What survives erasure").
      // A path no route matched is logged as it came (it names no customer the service holds).
      path: request.routeOptions.url ?? request.url.split('?')[0],
      status,
      duration_ms: durationMs === undefined ? undefined : Math.round(durationMs * 10) / 10,
      ip: request.ip,
      account_id: request.principal?.account_id ?? undefined,
      key_prefix: request.principal?.key_prefix,
    });
  };
  fastify.addHook('onResponse', async (request, reply) => countAnswer(request, reply.statusCode));
  // A client that leaves before its answer is written gets no 'finish', so onResponse never comes: counted and
  // logged as 499 (client closed request), as nginx does, instead of vanishing from the metrics and the log.
  fastify.addHook('onRequestAbort', async (request) => countAnswer(request, 499));
  const app = await NestFactory.create<NestFastifyApplication>(module, adapter, { logger, bufferLogs: false, abortOnError: false, bodyParser: false });
  app.useGlobalFilters(new EnvelopeExceptionFilter());
  app.useGlobalPipes(createValidationPipe());
  serveOpenApi(app);
  // Connections that carry no request: Node's closeIdleConnections leaves a socket that has never sent one (a
  // browser's preconnect), which would otherwise hold a graceful stop until the headers time-out. Tracked per
  // connection, not per request; a socket with a response under way has its `_httpMessage` set (as Node's own
  // closeIdleConnections checks) and is left to finish.
  const sockets = new Set<Socket>();
  fastify.server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  const closeQuietConnections = () => {
    fastify.server.closeIdleConnections?.();
    for (const socket of sockets) if (!(socket as Socket & { _httpMessage?: unknown })._httpMessage) socket.destroy();
  };
  const stop = async () => {
    stopping = true;
    const sweeper = setInterval(closeQuietConnections, 50);
    try {
      await fastify.close();
    } finally {
      clearInterval(sweeper);
    }
  };
  return { app, stop, onResponse: (listener) => listeners.push(listener), onRequest: (gate) => gates.push(gate) };
}

/** The OpenAPI 3.1 document is generated from the controllers and DTOs (decisions.md). */
function serveOpenApi(app: INestApplication): void {
  const builder = new DocumentBuilder()
    .setTitle('Location Addressing, Verification and Monitoring API')
    .setDescription(
      'The /v2 HTTP JSON interface. Every answer is an envelope { success, data | error } except /health, this document and binary answers. ' +
        '`error` is `{code, message, field?, details?, request_id}`: `field` names the request field at fault; `details`, when present, holds what a client can act on, ' +
        'documented per code (INVALID_CODE: `{reason, suggestions}`, reason one of empty, too_long, bad_character, bad_length, check_failed, out_of_range, pentagon_deleted_cell). ' +
        `Request bodies are application/json without a Content-Encoding (else 415 UNSUPPORTED_MEDIA_TYPE), nested at most ${JSON_BODY_LIMITS.maxDepth} levels, ` +
        `with at most ${JSON_BODY_LIMITS.maxValues} values (array elements and object members) and ${JSON_BODY_LIMITS.maxMembers} members per object ` +
        '(else 400 BODY_TOO_COMPLEX, details `{limit: depth|values|members, max}`); a lone UTF-16 surrogate in any string is 400 INVALID_PARAM.',
    )
    .setVersion('5.16.0')
    .setOpenAPIVersion('3.1.0')
    .addApiKey({ type: 'apiKey', in: 'header', name: 'X-API-Key' }, 'api_key')
    .build();
  let document: unknown;
  const served = () => (document ??= finishDocument(SwaggerModule.createDocument(app, builder)));
  documents.set(app, served);
  const fastify = app.getHttpAdapter().getInstance() as FastifyInstance;
  fastify.get('/v2/openapi.json', async (_request, reply) => reply.header('cache-control', 'no-cache').send(served()));
}

const documents = new WeakMap<INestApplication, () => unknown>();

/**
 * The document an application serves at /v2/openapi.json, read in process:
 * the e2e contract check reads it this way, so that reading it is not one of
 * the requests a test counts (a per-IP limit of 5 would see a sixth).
 */
export function servedOpenApiDocument(app: INestApplication): unknown {
  const served = documents.get(app);
  if (!served) throw new Error('this application serves no OpenAPI document');
  return served();
}

