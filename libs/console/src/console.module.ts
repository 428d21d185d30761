import { Module } from '@nestjs/common';
import { ConsoleController } from './console.controller.js';

/** The developer console page at GET /console (issue 19). */
@Module({ controllers: [ConsoleController] })
export class ConsoleModule {}
