import { holdSignalsWhileStarting } from '../../shared/lifecycle.js';
import { serveHttp } from '../../api/src/serve.js';
import { openRuntime } from '../../shared/runtime.js';
import { AllInOneModule } from './all-in-one.module.js';

holdSignalsWhileStarting();
const runtime = await openRuntime('location-api');
await serveHttp(runtime, AllInOneModule.forRoot(runtime), 'all-in-one');
