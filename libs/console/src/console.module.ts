import { Module } from '@nestjs/common';
import { GlyphRangesModule } from '../../tiles/src/index.js';
import { ConsoleController } from './console.controller.js';
import { DocsController } from './docs.controller.js';
import { WorkbenchController } from './workbench.controller.js';

/** The developer console page at GET /console (issue 19) and the API reference at GET /docs (issue 28). */
// The compliance workbench at GET /workbench (issue 51).
@Module({ imports: [GlyphRangesModule], controllers: [ConsoleController, DocsController, WorkbenchController] })
export class ConsoleModule {}
