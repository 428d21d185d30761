import type { DynamicModule } from '@nestjs/common';
import { PlatformModule, type Runtime } from '../../../libs/platform/src/index.js';
import { ApiModule } from '../../api/src/api.module.js';
import { WorkerModule } from '../../worker/src/worker.module.js';

/** api, worker and projections in one process: what `npm start` runs. */
export class AllInOneModule {
  static forRoot(runtime: Runtime): DynamicModule {
    return {
      module: AllInOneModule,
      imports: [PlatformModule.forRoot(runtime, { http: true }), WorkerModule.forRoot(runtime), ApiModule.forRoot(runtime, { projectionsInProcess: true })],
    };
  }
}
