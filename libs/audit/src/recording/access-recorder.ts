import type { OnModuleDestroy } from '@nestjs/common';
import { ConcurrencyError, StreamNotFoundError, type EventStore, type EventRegistry } from '../../../platform/src/index.js';
import { accessStream, link, type AccessEntry, type ChainLink } from '../domain/access-events.js';

/** Entries appended in one event-store write at most. */
const MAX_BATCH = 500;
const MAX_CONFLICT_RETRIES = 20;

interface Waiting {
  entry: AccessEntry;
  resolve: () => void;
  reject: (error: unknown) => void;
}

interface Chain {
  /** Last link written, or undefined while unknown (first use, after a conflict). */
  head?: ChainLink & { revision: bigint };
  known: boolean;
  queue: Waiting[];
  writing: boolean;
}

/**
 * Appends access events with group commit: entries that arrive while a write
 * is in flight are linked into the chain and appended together, so a busy
 * stream costs one append per batch rather than one per request. `record`
 * resolves once the entry is durable; the HTTP layer holds the response until
 * then, so no answered request goes unaudited.
 */
export class AccessRecorder implements OnModuleDestroy {
  private readonly chains = new Map<string, Chain>();
  private readonly idle = new Set<() => void>();

  constructor(
    private readonly events: EventStore,
    private readonly registry: EventRegistry,
  ) {}

  record(entry: AccessEntry): Promise<void> {
    const stream = accessStream(entry.account_id);
    let chain = this.chains.get(stream);
    if (!chain) {
      chain = { known: false, queue: [], writing: false };
      this.chains.set(stream, chain);
    }
    const queued = new Promise<void>((resolve, reject) => chain.queue.push({ entry, resolve, reject }));
    if (!chain.writing) void this.drain(stream, chain);
    return queued;
  }

  /** Runs after the HTTP server has closed, so every answered request is written before exit. */
  onModuleDestroy(): Promise<void> {
    return this.flush();
  }

  /** Resolves when every entry recorded so far is written (graceful shutdown). */
  async flush(): Promise<void> {
    while ([...this.chains.values()].some((chain) => chain.writing || chain.queue.length > 0)) {
      await new Promise<void>((resolve) => this.idle.add(resolve));
    }
  }

  private async drain(stream: string, chain: Chain): Promise<void> {
    chain.writing = true;
    try {
      while (chain.queue.length > 0) {
        const batch = chain.queue.splice(0, MAX_BATCH);
        try {
          await this.appendBatch(stream, chain, batch.map((waiting) => waiting.entry));
          for (const waiting of batch) waiting.resolve();
        } catch (error) {
          chain.known = false;
          for (const waiting of batch) waiting.reject(error);
        }
      }
    } finally {
      chain.writing = false;
      for (const resolve of this.idle) resolve();
      this.idle.clear();
    }
  }

  private async appendBatch(stream: string, chain: Chain, entries: AccessEntry[]): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      if (!chain.known) {
        chain.head = await this.readHead(stream);
        chain.known = true;
      }
      const linked = link(entries, chain.head);
      const metadata = this.registry.metadataFor('ApiAccessRecorded');
      try {
        const result = await this.events.append(
          stream,
          linked.map((event) => ({ type: event.type, data: { ...event.data }, metadata })),
          chain.head ? chain.head.revision : 'no_stream',
        );
        const last = linked[linked.length - 1].data;
        chain.head = { prevHash: last.hash, seq: last.seq, revision: result.nextExpectedRevision };
        return;
      } catch (error) {
        // Another instance appended to the same chain: relink on top of its entries.
        if (!(error instanceof ConcurrencyError) || attempt >= MAX_CONFLICT_RETRIES) throw error;
        chain.known = false;
      }
    }
  }

  private async readHead(stream: string): Promise<(ChainLink & { revision: bigint }) | undefined> {
    try {
      const [last] = await this.events.readStream(stream, { direction: 'backwards', maxCount: 1 });
      if (!last) return undefined;
      const data = last.data as { hash: string; seq: number };
      return { prevHash: data.hash, seq: data.seq, revision: last.revision };
    } catch (error) {
      if (error instanceof StreamNotFoundError) return undefined;
      throw error;
    }
  }
}
