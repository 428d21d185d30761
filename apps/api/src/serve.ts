import type { DynamicModule } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyInstance } from 'fastify';
import { FairShare, InFlight, ipThrottle, KeyDirectory, loopHeadroom, rateLimitHeadersOnEveryResponse, RefusalHolds, rememberKeylessRefusals } from '../../../libs/accounts/src/index.js';
import { AccessRecorder, accessListener } from '../../../libs/audit/src/index.js';
import { closeBackends, collectProcessMetrics, createHttpApp, describeBackends, keepSliceHeadroom, LoopLag, type HttpAppOptions, type Runtime } from '../../../libs/platform/src/index.js';
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
  // Refusal holds for callers without a key, by IP (docs/adr/0044): remembered from the answers, applied by the gate.
  const keylessHolds = new RefusalHolds();
  // Turns on the loop by tenant while it is behind (docs/adr/0045), headroom for others while it is saturated
  // (docs/adr/0052); FAIR_SHARE_LAG_MS=0 turns both off.
  const lag = config.fairShare.lagMs > 0 ? new LoopLag(config.fairShare.lagMs).start() : undefined;
  const headroom = lag ? loopHeadroom(lag, config.fairShare.loopPercent) : undefined;
  const fairShare = lag ? new FairShare({ ...config.fairShare, pressured: () => lag.pressured(), headroom }) : undefined;
  if (fairShare && lag) lag.onTick(() => fairShare.release());
  // A request's sliced work (portfolio risk, answers' chunks) keeps the same headroom while others use the loop (ADR 0052).
  if (fairShare && lag && headroom) keepSliceHeadroom({ held: () => headroom.saturated() && fairShare.shared(), nextTick: () => lag.nextTick() });
  http.onRequest(ipThrottle(runtime.backends.rateLimiter, config, runtime.clock, keys, { inFlight: http.app.get(InFlight, { strict: false }), keylessHolds, fairShare }));
  http.onResponse(rememberKeylessRefusals(keylessHolds, config, keys));
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
    if (headroom) keepSliceHeadroom(undefined);
    lag?.stop();
    runtime.readiness.markStopping();
    await stopHttp();
    await http.app.close();
    await closeBackends(runtime.backends);
  };
  return { url, app: http.app, close };
}
