import type { DynamicModule } from '@nestjs/common';
import type { Runtime } from '../../../libs/platform/src/index.js';
import { composeProcess } from '../../shared/compose.js';

/** api, worker and projections in one process: what `npm start` runs. */
export class AllInOneModule {
  static forRoot(runtime: Runtime): DynamicModule {
    return composeProcess('all-in-one', runtime);
  }
}
