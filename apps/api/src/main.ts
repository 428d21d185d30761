import { PlatformModule } from '../../../libs/platform/src/index.js';
import { openRuntime } from '../../shared/runtime.js';
import { ApiModule } from './api.module.js';
import { serveHttp } from './serve.js';

/** Production api process: HTTP only; the worker runs projections and relays. */
class ApiProcessModule {}

const runtime = await openRuntime('location-api-api');
await serveHttp(
  runtime,
  { module: ApiProcessModule, imports: [PlatformModule.forRoot(runtime, { http: true }), ApiModule.forRoot(runtime, { projectionsInProcess: false })] },
  'api',
);
