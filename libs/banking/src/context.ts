import type { DynamicModule, Type } from '@nestjs/common';
import type { ContextDefinition } from '../../platform/src/index.js';
import { BankingModule } from './banking.module.js';
import { bankingManifest } from './manifest.js';
import { BankingWorkerModule } from './reverification/reverification-worker.module.js';

/**
 * Banking features for lenders (docs/adr/0022). The composition root binds
 * weather's alert areas for portfolio risk; the re-verification processor
 * runs in the worker.
 */
export function bankingContext(alerts: { module: Type<unknown> | DynamicModule; provider: unknown }): ContextDefinition {
  return { manifest: bankingManifest, http: BankingModule.withAlertAreas(alerts), worker: BankingWorkerModule };
}
