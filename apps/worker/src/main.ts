import { NestFactory } from '@nestjs/core';
import { describeBackends } from '../../../libs/platform/src/index.js';
import { checkProcessWiring, composeProcess } from '../../shared/compose.js';
import { handleShutdown } from '../../shared/lifecycle.js';
import { openRuntime } from '../../shared/runtime.js';

/** Production worker process: projections, the Kafka relay and queue processors; no HTTP. */
const runtime = await openRuntime('location-api-worker', process.env, 'worker');
const app = await NestFactory.createApplicationContext(composeProcess('worker', runtime), { logger: runtime.logger });
await app.init();
checkProcessWiring(app, runtime);
runtime.readiness.markReady();
runtime.logger.info({ msg: 'worker started', backends: describeBackends(runtime.config) });
handleShutdown(runtime, app);
