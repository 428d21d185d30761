import { NestFactory } from '@nestjs/core';
import { describeBackends, serveHealth } from '../../../libs/platform/src/index.js';
import { checkProcessWiring, composeProcess } from '../../shared/compose.js';
import { handleShutdown, holdSignalsWhileStarting } from '../../shared/lifecycle.js';
import { openRuntime } from '../../shared/runtime.js';

/** Production worker process: projections, the Kafka relay and queue processors; no HTTP. */
holdSignalsWhileStarting();
const runtime = await openRuntime('location-api-worker', process.env, 'worker');
const app = await NestFactory.createApplicationContext(composeProcess('worker', runtime), { logger: runtime.logger });
await app.init();
checkProcessWiring(app, runtime);
// Orchestrators ask the worker as they ask the api (docs/adr/0033).
const health = runtime.config.healthPort === undefined ? undefined : await serveHealth(runtime.readiness, runtime.config.healthPort, runtime.config.host);
runtime.readiness.markReady();
runtime.logger.info({ msg: 'worker started', backends: describeBackends(runtime.config), health_port: runtime.config.healthPort ?? null });
handleShutdown(runtime, app, health ? () => new Promise<void>((resolve) => health.close(() => resolve())) : undefined);
