import { NestFactory } from '@nestjs/core';
import { describeBackends, PlatformModule } from '../../../libs/platform/src/index.js';
import { handleShutdown } from '../../shared/lifecycle.js';
import { openRuntime } from '../../shared/runtime.js';
import { WorkerModule } from './worker.module.js';

/** Production worker process: projections, the Kafka relay and queue processors; no HTTP. */
class WorkerProcessModule {}

const runtime = await openRuntime('location-api-worker');
const app = await NestFactory.createApplicationContext(
  { module: WorkerProcessModule, imports: [PlatformModule.forRoot(runtime, { http: false }), WorkerModule.forRoot(runtime)] },
  { logger: runtime.logger },
);
await app.init();
runtime.readiness.markReady();
runtime.logger.info({ msg: 'worker started', backends: describeBackends(runtime.config) });
handleShutdown(runtime, app);
