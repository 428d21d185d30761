import type { OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import type { Clock, EventRegistry, EventStore, JsonLogger } from '../../../platform/src/index.js';
import type { AuditTrail } from '../../../audit/src/index.js';
import type { SigningKeys } from '../../../identity/src/index.js';
import { CheckpointWriter } from './checkpoint-writer.js';

/**
 * Runs a checkpoint round every AUDIT_CHECKPOINT_INTERVAL_S seconds
 * (docs/adr/0023), and signs a chain's head on demand for an export. It reads
 * the chains through the audit context's AuditTrail and signs with the
 * identity context's SigningKeys (docs/adr/0065: a key ring of the process,
 * so a rotation reaches it like any other signer). Rounds never overlap; one
 * that fails (no key yet, the store down) is logged and the next one retries.
 */
export class CheckpointScheduler implements OnApplicationBootstrap, OnModuleDestroy {
  private timer?: NodeJS.Timeout;
  private running?: Promise<unknown>;
  private readonly writer: CheckpointWriter;

  constructor(
    events: EventStore,
    registry: EventRegistry,
    trail: AuditTrail,
    private readonly keys: SigningKeys,
    clock: Clock,
    private readonly logger: Pick<JsonLogger, 'warn' | 'error'>,
    private readonly intervalS: number,
  ) {
    this.writer = new CheckpointWriter(events, registry, trail, keys, clock);
  }

  /** Signs one chain's head now (an export, issue 30); see CheckpointWriter.signHead. */
  signHead(stream: string): ReturnType<CheckpointWriter['signHead']> {
    return this.writer.signHead(stream);
  }

  /** Signs one given entry (an archived month's last, docs/adr/0024); see CheckpointWriter.signEntry. */
  signEntry(head: Parameters<CheckpointWriter['signEntry']>[0]): ReturnType<CheckpointWriter['signEntry']> {
    return this.writer.signEntry(head);
  }

  /** A compact JWS (EdDSA, `kid` and `typ` in the protected header) over a JSON document, with the same keys: a customer's copy (issue 30). */
  signDocument(typ: string, document: unknown): Promise<{ kid: string; jws: string }> {
    return this.keys.signJson(document, typ);
  }

  onApplicationBootstrap(): void {
    // Exports sign their last entry even when the periodic rounds are off (the SigningKeys start with the application).
    if (this.intervalS <= 0) return;
    this.timer = setInterval(() => {
      if (this.running) return;
      this.running = this.writer
        .round()
        .catch((error: unknown) => this.logger.warn({ msg: 'audit checkpoint round failed; the next one retries', err: error instanceof Error ? error.message : String(error) }))
        .finally(() => {
          this.running = undefined;
        });
    }, this.intervalS * 1000);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }
}
