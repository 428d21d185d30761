import { Module } from '@nestjs/common';
import { CUSTOMER_PSEUDONYMS, MonitoringModule, type CustomerPseudonymPort } from '../../../monitoring/src/index.js';
import { DATA_KEY_VAULT, type DataKeyVault } from '../../../platform/src/index.js';
import { RecordReverificationRunHandler } from './record-run.handler.js';
import { ScheduleSealing } from './schedule-sealing.js';

/**
 * The record-run command's handler, imported by banking's HTTP module and by
 * its worker module: Nest builds one module once, so the all-in-one process
 * registers the handler once (the wiring check refuses two). It also provides
 * the schedule streams' sealing (docs/adr/0055), which every schedule command
 * and read folds through, to both.
 */
@Module({
  imports: [MonitoringModule],
  providers: [
    RecordReverificationRunHandler,
    {
      provide: ScheduleSealing,
      inject: [DATA_KEY_VAULT, CUSTOMER_PSEUDONYMS],
      useFactory: (vault: DataKeyVault, pseudonyms: CustomerPseudonymPort) => ScheduleSealing.open(vault, pseudonyms),
    },
  ],
  exports: [ScheduleSealing],
})
export class RecordRunModule {}
