import type { DynamicModule } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyInstance } from 'fastify';
import { InFlight, ipThrottle, KeyDirectory, rateLimitHeadersOnEveryResponse } from '../../../libs/accounts/src/index.js';
import { AccessRecorder, accessListener } from '../../../libs/audit/src/index.js';
import { closeBackends, collectProcessMetrics, createHttpApp, describeBackends, type HttpAppOptions, type Runtime } from '../../../libs/platform/src/index.js';
import { checkProcessWiring } from '../../shared/compose.js';
import { handleShutdown, holdSignalsWhileStarting } from '../../shared/lifecycle.js';

/** Boots the HTTP app on `module`, wires the access audit, listens, and handles SIGTERM. */
export interface RunningHttp {
  url: string;
  app: NestFastifyApplication;
  /** Graceful stop as on SIGTERM, without exiting the process (tests). */
  close: () => Promise<void>;
}

export async function serveHttp(runtime: Runtime, module: DynamicModule, role: string, options: { signals: boolean } & HttpAppOptions = { signals: true }): Promise<RunningHttp> {
  const { config, logger } = runtime;
  if (options.signals) holdSignalsWhileStarting();
  collectProcessMetrics();
  const http = await createHttpApp(module, config, logger, { schemaWriters: options.schemaWriters });
  await http.app.init();
  checkProcessWiring(http.app, runtime);
  const keys = http.app.get(KeyDirectory, { strict: false });
  // Every rate limit but the daily quota, and the per-key cap of expensive requests, before the body is read; an
  // overloaded process has already shed the request (createHttpApp: 503 SERVICE_BUSY).
  http.onRequest(ipThrottle(runtime.backends.rateLimiter, config, runtime.clock, keys, { inFlight: http.app.get(InFlight, { strict: false }) }));
  // X-RateLimit-* on the answers the guard never saw (unknown paths, routes outside Nest, refusals before the quota).
  http.onResponse(rateLimitHeadersOnEveryResponse(runtime.backends.rateLimiter, config, runtime.clock, keys));
  http.onResponse(accessListener(http.app.get(AccessRecorder)));
  await http.app.listen({ port: config.port, host: config.host });
  const fastify = http.app.getHttpAdapter().getInstance() as FastifyInstance;
  const address = fastify.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `http://127.0.0.1:${port}`;
  runtime.readiness.markReady();
  logger.info({ msg: 'listening', role, url, data_dir: config.dataDir, backends: describeBackends(config) });
  const stopHttp = () => http.stop();
  if (options.signals) handleShutdown(runtime, http.app, stopHttp);
  const close = async () => {
    runtime.readiness.markStopping();
    await stopHttp();
    await http.app.close();
    await closeBackends(runtime.backends);
  };
  return { url, app: http.app, close };
}
