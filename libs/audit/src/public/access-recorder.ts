import type { OnModuleDestroy } from '@nestjs/common';
import { ConcurrencyError, StreamNotFoundError, type EventStore, type EventRegistry } from '../../../platform/src/index.js';
import { accessStream, link, type AccessEntry, type ChainLink } from '../domain/access-events.js';

/** Entries appended in one event-store write at most. */
const MAX_BATCH = 1000;
const MAX_CONFLICT_RETRIES = 20;

export interface AccessRecorderOptions {
  /**
   * Appends in flight at once per chain. Above 1, each batch is linked onto
   * the predicted head of the one before it, which is only safe when this
   * process is the chain's sole writer (the embedded store). With several api
   * instances on EventStoreDB keep 1: a conflict must be seen before the next
   * batch is linked, or a batch could land after another writer's entries.
   */
  maxInFlight: number;
}

interface Waiting {
  entry: AccessEntry;
  /** Stored as `journal` in the event's metadata when it is its append's last entry with one (the journal's record id). */
  ref?: string;
  /** Arrival order, so batches re-queued after a failure keep their place. */
  order: number;
  attempts: number;
  resolve: () => void;
  reject: (error: unknown) => void;
}

type Head = ChainLink & { revision: bigint };

interface Chain {
  /** Head after every append issued so far; undefined for an empty stream. */
  head?: Head;
  /** False on first use and after a failure: the head must be read from the store. */
  known: boolean;
  queue: Waiting[];
  inFlight: number;
  /** Set after a failure: nothing new is issued until every append in flight has settled. */
  draining: boolean;
  loading: boolean;
}

/**
 * Records each authenticated access in its account's hash chain. `record`
 * resolves once the entry is durable; the HTTP layer holds the response until
 * then, so no answered request goes unaudited. Two ways to get there:
 * `StoreAccessRecorder` appends to the event store itself (EventStoreDB, where
 * several api instances share a chain) and `JournaledAccessRecorder` commits to
 * a local journal first and appends to the store right after (the embedded
 * store, whose one api process is the chains' only writer). ADR 0004.
 */
export abstract class AccessRecorder implements OnModuleDestroy {
  abstract record(entry: AccessEntry): Promise<void>;
  /** Resolves when every entry recorded so far is written (graceful shutdown). */
  abstract flush(): Promise<void>;
  /**
   * Resolves once every entry whose `record` has resolved can be read from the
   * event store, so a reader of the chains in this process sees its own
   * answered requests. Fails with BackendUnavailableError when the store
   * cannot take the entries now.
   */
  abstract applied(): Promise<void>;

  /** Runs after the HTTP server has closed, so every answered request is written before exit. */
  onModuleDestroy(): Promise<void> {
    return this.flush();
  }
}

/**
 * Appends access events to the event store with group commit: entries that
 * arrive while a write is in flight are linked into the chain and appended
 * together, so a busy stream costs one append per batch rather than one per
 * request. An entry is in the store when `record` resolves.
 */
export class StoreAccessRecorder extends AccessRecorder {
  private readonly chains = new Map<string, Chain>();
  private readonly idle = new Set<() => void>();
  private arrivals = 0;

  constructor(
    private readonly events: EventStore,
    private readonly registry: EventRegistry,
    private readonly options: AccessRecorderOptions = { maxInFlight: 1 },
  ) {
    super();
  }

  /**
   * `ref` goes into the stored event's metadata as `journal`, on the last
   * entry with one of each append: refs must grow along a chain.
   */
  record(entry: AccessEntry, ref?: string): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const stream = accessStream(entry.account_id);
      const chain = this.chainOf(stream);
      chain.queue.push({ entry, ref, order: this.arrivals++, attempts: 0, resolve, reject });
      this.pump(stream, chain);
    });
  }

  /**
   * `record` for many entries at once, settled together: all are queued
   * before any append is issued, so each chain's entries go in one append (up
   * to MAX_BATCH) rather than the first alone and the rest after it. Resolves
   * with each entry's error, or undefined where it is stored.
   */
  recordAll(items: ReadonlyArray<{ entry: AccessEntry; ref?: string }>): Promise<unknown[]> {
    return new Promise((settle) => {
      const errors: unknown[] = new Array(items.length);
      let left = items.length;
      if (left === 0) {
        settle(errors);
        return;
      }
      const stored = () => {
        if (--left === 0) settle(errors);
      };
      const touched = new Map<string, Chain>();
      for (let index = 0; index < items.length; index++) {
        const { entry, ref } = items[index];
        const stream = accessStream(entry.account_id);
        const chain = this.chainOf(stream);
        touched.set(stream, chain);
        chain.queue.push({
          entry,
          ref,
          order: this.arrivals++,
          attempts: 0,
          resolve: stored,
          reject: (error: unknown) => {
            errors[index] = error ?? new Error('the access entry was not stored');
            stored();
          },
        });
      }
      for (const [stream, chain] of touched) this.pump(stream, chain);
    });
  }

  private chainOf(stream: string): Chain {
    let chain = this.chains.get(stream);
    if (!chain) {
      chain = { known: false, queue: [], inFlight: 0, draining: false, loading: false };
      this.chains.set(stream, chain);
    }
    return chain;
  }

  /** Entries are in the store before `record` resolves. */
  applied(): Promise<void> {
    return Promise.resolve();
  }

  async flush(): Promise<void> {
    while ([...this.chains.values()].some((chain) => chain.inFlight > 0 || chain.queue.length > 0 || chain.loading)) {
      await new Promise<void>((resolve) => this.idle.add(resolve));
    }
  }

  private pump(stream: string, chain: Chain): void {
    while (chain.queue.length > 0 && !chain.loading && chain.inFlight < this.options.maxInFlight) {
      if (chain.draining) {
        if (chain.inFlight > 0) return;
        chain.draining = false;
        chain.known = false;
      }
      if (!chain.known) {
        this.loadHead(stream, chain);
        return;
      }
      this.issue(stream, chain, chain.queue.splice(0, MAX_BATCH));
    }
    this.notifyIdle();
  }

  private loadHead(stream: string, chain: Chain): void {
    chain.loading = true;
    readChainHead(this.events, stream).then(
      (head) => {
        chain.head = head;
        chain.known = true;
        chain.loading = false;
        this.pump(stream, chain);
      },
      (error: unknown) => {
        chain.loading = false;
        for (const waiting of chain.queue.splice(0)) waiting.reject(error);
        this.notifyIdle();
      },
    );
  }

  private issue(stream: string, chain: Chain, batch: Waiting[]): void {
    const expected = chain.head ? chain.head.revision : 'no_stream';
    const linked = link(
      batch.map((waiting) => waiting.entry),
      chain.head,
    );
    const last = linked[linked.length - 1].data;
    chain.head = { prevHash: last.hash, seq: last.seq, revision: (chain.head ? chain.head.revision : -1n) + BigInt(linked.length) };
    chain.inFlight++;
    const metadata = this.registry.metadataFor('ApiAccessRecorded');
    let lastNoted = -1;
    for (let index = batch.length - 1; index >= 0 && lastNoted < 0; index--) if (batch[index].ref !== undefined) lastNoted = index;
    this.events
      .append(
        stream,
        // The store serialises the data at once; no copy is needed.
        // The journal ref goes on the batch's last event that has one: refs grow along a chain,
        // so the last one stored tells what is stored, and one shared metadata object is serialised once.
        linked.map((event, index) => ({
          type: event.type,
          data: event.data as Record<string, unknown>,
          metadata: index === lastNoted ? { ...metadata, journal: batch[index].ref } : metadata,
        })),
        expected,
      )
      .then(
        () => {
          for (const waiting of batch) waiting.resolve();
        },
        (error: unknown) => {
          // Whatever failed, appends issued after this one were linked onto it and will fail too:
          // stop issuing, let them settle, then relink everything on the stored head.
          chain.draining = true;
          for (const waiting of batch) {
            waiting.attempts++;
            // Another instance appended to the chain: retry on top of its entries. Anything else fails the requests.
            if (error instanceof ConcurrencyError && waiting.attempts <= MAX_CONFLICT_RETRIES) chain.queue.push(waiting);
            else waiting.reject(error);
          }
          chain.queue.sort((a, b) => a.order - b.order);
        },
      )
      .finally(() => {
        chain.inFlight--;
        this.pump(stream, chain);
      });
  }

  private notifyIdle(): void {
    for (const resolve of this.idle) resolve();
    this.idle.clear();
  }
}

/** The last link of a stored chain and its revision, or undefined for an empty one. */
async function readChainHead(events: EventStore, stream: string): Promise<Head | undefined> {
  try {
    const [last] = await events.readStream(stream, { direction: 'backwards', maxCount: 1 });
    if (!last) return undefined;
    const data = last.data as { hash: string; seq: number };
    return { prevHash: data.hash, seq: data.seq, revision: last.revision };
  } catch (error) {
    if (error instanceof StreamNotFoundError) return undefined;
    throw error;
  }
}
