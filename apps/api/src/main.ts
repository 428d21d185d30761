import { holdSignalsWhileStarting } from '../../shared/lifecycle.js';
import { composeProcess } from '../../shared/compose.js';
import { openRuntime } from '../../shared/runtime.js';
import { serveHttp } from './serve.js';

/** Production api process: HTTP only; the worker runs projections, queue processors and relays. */
holdSignalsWhileStarting();
const runtime = await openRuntime('location-api-api', process.env, 'api');
await serveHttp(runtime, composeProcess('api', runtime), 'api');
