import type { OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import type { CommandBus } from '@nestjs/cqrs';
import type { EventStore, JsonLogger, ReadStore } from '../../../../platform/src/index.js';
import { SealConsentRecordCommand } from './seal-consent-record.handler.js';

/** The read-store checkpoint of the backfill: the log position it has scanned to. */
export const CONSENT_RECORD_BACKFILL = 'consent_record_backfill';
const PAGE = 1000;

/**
 * Finds consent streams whose grants were stored before consent records were
 * sealed (no pseudonym) and seals each one's record (docs/adr/0032,
 * "Listing"), once, in the background after start. The scan resumes from its
 * checkpoint, so a deployment reads its log once; every grant since carries
 * its seal, so later starts scan only what was appended in between. Processes
 * that start together may both scan: the command records each stream once.
 */
export class ConsentRecordBackfill implements OnApplicationBootstrap, OnModuleDestroy {
  private stopped = false;
  private running?: Promise<void>;

  constructor(
    private readonly events: EventStore,
    private readonly readStore: ReadStore,
    private readonly commands: CommandBus,
    private readonly logger: JsonLogger,
  ) {}

  onApplicationBootstrap(): void {
    this.running = this.run().then(
      () => undefined,
      (error: unknown) => {
        if (!this.stopped) this.logger.warn({ msg: 'the consent record backfill stopped; it resumes at the next start', err: error instanceof Error ? error.message : String(error) });
      },
    );
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    await this.running;
  }

  /** Scans the log from the checkpoint and seals what it finds; answers how many streams it sealed. */
  async run(): Promise<number> {
    let after = await this.readStore.getCheckpoint(CONSENT_RECORD_BACKFILL);
    let sealed = 0;
    while (!this.stopped) {
      // The consent streams alone (the embedded store reads them from its category index, not the whole log: issue 47).
      const page = await this.events.readAll({ ...(after !== undefined ? { after } : {}), maxCount: PAGE, streamPrefixes: ['consent-'] });
      if (page.length === 0) break;
      const streams = new Set<string>();
      for (const event of page) {
        if (event.type === 'ConsentGranted' && event.streamName.startsWith('consent-') && event.data.pseudonym === undefined) streams.add(event.streamName);
      }
      for (const stream of streams) {
        if (this.stopped) return sealed;
        const separator = stream.indexOf(':');
        const result = await this.commands.execute(
          new SealConsentRecordCommand({ type: 'SealConsentRecord', account_id: stream.slice('consent-'.length, separator), customer_id: stream.slice(separator + 1) }),
        );
        if (result.events.length > 0) sealed += 1;
      }
      after = page[page.length - 1].position;
      await this.readStore.setCheckpoint(CONSENT_RECORD_BACKFILL, after);
      if (page.length < PAGE) break;
    }
    if (sealed > 0) this.logger.log({ msg: 'consent records sealed for listing', streams: sealed });
    return sealed;
  }
}
