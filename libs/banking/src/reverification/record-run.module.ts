import { Module } from '@nestjs/common';
import { RecordReverificationRunHandler } from './record-run.handler.js';

/**
 * The record-run command's handler, imported by banking's HTTP module and by
 * its worker module: Nest builds one module once, so the all-in-one process
 * registers the handler once (the wiring check refuses two).
 */
@Module({ providers: [RecordReverificationRunHandler] })
export class RecordRunModule {}
