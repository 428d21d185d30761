import path from 'node:path';
import { BackendUnavailableError, ConcurrencyError, DirectoryInUseError, type EventRegistry, type EventStore } from '../../../platform/src/index.js';
import { accessStream, GENESIS_HASH, link, type AccessEntry, type ChainLink } from '../domain/access-events.js';
import { AccessJournal, type JournalRecord } from './access-journal.js';
import { AccessRecorder, readChainHead } from './access-recorder.js';

/** Entries committed to the journal in one write at most. */
const MAX_WRITE = 1000;
/** Records appended to the event store in one round at most. */
const MAX_APPLY = 5000;
/**
 * How long journaled records gather before a round goes to the store. A round
 * is one LMDB transaction whatever its size, and a durable commit costs ~0.5 ms
 * of CPU, so rounds per second, not records, set the store's share of the
 * audit's cost. Readers in this process do not wait for it (`applied()` starts
 * a round at once); other processes see an entry this much later.
 */
const APPLY_DELAY_MS = 25;
/** Pause before the store is tried again after a failed append (the entries wait safely in the journal). */
const APPLY_RETRY_MS = 1000;

interface Waiting {
  stream: string;
  entry: AccessEntry;
  resolve: () => void;
  reject: (error: unknown) => void;
}

interface Chain {
  /** Last link given out (journaled or being journaled); undefined for an empty chain. */
  head?: ChainLink;
  /** Revision of the chain's last event in the store; -1n for none. */
  stored: bigint;
  known: boolean;
  /** Entries waiting for the head to be read from the store. */
  pending: Waiting[];
  loading: boolean;
}

interface Applying {
  record: JournalRecord;
  segment: number;
}

/**
 * The access recorder of the embedded store (ADR 0004, "The journal"). This
 * process is each chain's only writer, so it links entries in memory and makes
 * them durable in the AccessJournal: one O_DSYNC write per group of requests,
 * one thread-pool hand-over each way. A request is answered once its entry is
 * in the journal. The linked entries are then appended to the event store in
 * large rounds, off the request path, and a journal segment is deleted once the
 * store holds every entry in it. After a crash, `open` appends to the store
 * what the journal holds and the store lacks before anything is served.
 *
 * Readers of the chains in this process call `applied()` first (the admin and
 * banking audit logs, exports, as-of replays), so an answered request is in
 * what they read; other processes read it once the round lands (milliseconds).
 */
export class JournaledAccessRecorder extends AccessRecorder {
  private readonly chains = new Map<string, Chain>();
  private queue: Waiting[] = [];
  private writing = false;
  private toApply: Applying[] = [];
  private applying = false;
  private retryTimer: NodeJS.Timeout | undefined;
  private applyTimer: NodeJS.Timeout | undefined;
  /** Set by flush: every round goes at once. */
  private flushing = false;
  /** Records journaled, and records durable in the store, since this process started. */
  private journaled = 0;
  private stored = 0;
  private readonly waiters: Array<{ target: number; resolve: () => void; reject: (error: unknown) => void }> = [];
  private readonly idle = new Set<() => void>();
  private applyError: unknown;
  /** Set when the journal can no longer be trusted to take writes: every request is refused (fail closed). */
  private broken: Error | undefined;
  private readonly metadata: Record<string, unknown>;

  private constructor(
    private readonly events: EventStore,
    registry: EventRegistry,
    private readonly journal: AccessJournal,
    private readonly onError: (message: string, error: unknown) => void,
  ) {
    super();
    this.metadata = registry.metadataFor('ApiAccessRecorded');
  }

  /**
   * Opens the journal in `dir` (refused while another process holds it) and
   * appends to the store whatever an earlier process journaled but did not store.
   */
  static async open(
    events: EventStore,
    registry: EventRegistry,
    dir: string,
    onError: (message: string, error: unknown) => void,
    options: { segmentBytes?: number } = {},
  ): Promise<JournaledAccessRecorder> {
    const { journal, recovered } = await AccessJournal.open(dir, options.segmentBytes);
    const recorder = new JournaledAccessRecorder(events, registry, journal, onError);
    try {
      await recorder.recover(recovered);
    } catch (error) {
      await journal.close();
      throw error;
    }
    await journal.discardRecovered();
    return recorder;
  }

  /**
   * For tools working on the chains beside or instead of the api process
   * (`npm run ops -- audit:verify`, exports, replays): stores what a stopped
   * api process journaled and the store lacks. `held` when a running api
   * process holds the journal (it stores its entries itself within a round).
   */
  static async settle(events: EventStore, registry: EventRegistry, dir: string): Promise<'stored' | 'held'> {
    try {
      const recorder = await JournaledAccessRecorder.open(events, registry, dir, () => undefined);
      await recorder.onModuleDestroy();
      return 'stored';
    } catch (error) {
      if (error instanceof DirectoryInUseError) return 'held';
      throw error;
    }
  }

  record(entry: AccessEntry): Promise<void> {
    if (this.broken) return Promise.reject(this.broken);
    const stream = accessStream(entry.account_id);
    let chain = this.chains.get(stream);
    if (!chain) {
      chain = { stored: -1n, known: false, pending: [], loading: false };
      this.chains.set(stream, chain);
    }
    const known = chain.known;
    const target = known ? this.queue : chain.pending;
    const queued = new Promise<void>((resolve, reject) => target.push({ stream, entry, resolve, reject }));
    if (known) this.write();
    else if (!chain.loading) this.loadHead(stream, chain);
    return queued;
  }

  applied(): Promise<void> {
    if (this.stored >= this.journaled) return Promise.resolve();
    if (this.applyError !== undefined) return Promise.reject(new BackendUnavailableError('the access trail is not readable right now; try again'));
    const waited = new Promise<void>((resolve, reject) => this.waiters.push({ target: this.journaled, resolve, reject }));
    this.applyNow();
    return waited;
  }

  async flush(): Promise<void> {
    this.flushing = true;
    try {
      this.applyNow();
      while (this.queue.length > 0 || this.writing || this.toApply.length > 0 || this.applying || [...this.chains.values()].some((chain) => chain.loading || chain.pending.length > 0)) {
        const journalDone = !this.writing && this.queue.length === 0;
        if (this.broken && journalDone && !this.applying && this.toApply.length === 0) return;
        // The store is refusing rounds: what it lacks is safe in the journal and goes in on the next start.
        if (this.applyError !== undefined && journalDone && !this.applying) return;
        await new Promise<void>((resolve) => this.idle.add(resolve));
      }
    } finally {
      this.flushing = false;
    }
  }

  override async onModuleDestroy(): Promise<void> {
    await this.flush();
    clearTimeout(this.retryTimer);
    clearTimeout(this.applyTimer);
    await this.journal.close();
  }

  private loadHead(stream: string, chain: Chain): void {
    chain.loading = true;
    readChainHead(this.events, stream).then(
      (head) => {
        chain.loading = false;
        chain.known = true;
        chain.head = head && { prevHash: head.prevHash, seq: head.seq };
        chain.stored = head ? head.revision : -1n;
        for (const waiting of chain.pending.splice(0)) this.queue.push(waiting);
        this.write();
      },
      (error: unknown) => {
        chain.loading = false;
        for (const waiting of chain.pending.splice(0)) waiting.reject(error);
        this.notifyIdle();
      },
    );
  }

  /** Links what is queued and commits it to the journal: one write in flight, the next gathers meanwhile. */
  private write(): void {
    if (this.writing || this.queue.length === 0) return;
    if (this.broken) {
      for (const waiting of this.queue.splice(0)) waiting.reject(this.broken);
      this.notifyIdle();
      return;
    }
    const batch = this.queue.length <= MAX_WRITE ? this.queue : this.queue.slice(0, MAX_WRITE);
    this.queue = this.queue.length <= MAX_WRITE ? [] : this.queue.slice(MAX_WRITE);
    const before = new Map<Chain, ChainLink | undefined>();
    const records: JournalRecord[] = new Array(batch.length);
    for (let index = 0; index < batch.length; index++) {
      const { stream, entry } = batch[index];
      const chain = this.chains.get(stream)!;
      if (!before.has(chain)) before.set(chain, chain.head);
      const [event] = link([entry], chain.head);
      chain.head = { prevHash: event.data.hash, seq: event.data.seq };
      records[index] = { stream, data: event.data };
    }
    this.writing = true;
    this.journal.append(records, (error, segment) => {
      this.writing = false;
      if (error) {
        // The batch is not in the journal (the journal cut it off again) or the journal is unusable: either way
        // its links were never given out, so the chains go back to where they were and the requests get 503.
        for (const [chain, head] of before) chain.head = head;
        for (const waiting of batch) waiting.reject(error);
        this.onError('access journal write failed; the requests were refused', error);
        if (!this.journal.usable) this.broken = new Error('the access journal cannot be written');
      } else {
        this.journaled += records.length;
        for (const record of records) this.toApply.push({ record, segment });
        for (const waiting of batch) waiting.resolve();
        this.scheduleApply();
      }
      this.write();
      this.notifyIdle();
    });
  }

  /** A round in APPLY_DELAY_MS, gathering what is journaled meanwhile (at once when someone waits for it). */
  private scheduleApply(): void {
    if (this.flushing || this.waiters.length > 0) {
      this.applyNow();
      return;
    }
    if (this.applyTimer || this.applying || this.retryTimer || this.toApply.length === 0) return;
    this.applyTimer = setTimeout(() => {
      this.applyTimer = undefined;
      this.apply();
    }, APPLY_DELAY_MS);
  }

  private applyNow(): void {
    clearTimeout(this.applyTimer);
    this.applyTimer = undefined;
    this.apply();
  }

  /** Appends journaled records to the store: one round in flight, each chain's records in one append. */
  private apply(): void {
    if (this.applying || this.retryTimer || this.applyTimer || this.toApply.length === 0) return;
    const round = this.toApply.length <= MAX_APPLY ? this.toApply : this.toApply.slice(0, MAX_APPLY);
    this.toApply = this.toApply.length <= MAX_APPLY ? [] : this.toApply.slice(MAX_APPLY);
    const byStream = new Map<string, JournalRecord[]>();
    for (const { record } of round) {
      let records = byStream.get(record.stream);
      if (!records) byStream.set(record.stream, (records = []));
      records.push(record);
    }
    this.applying = true;
    const chains = [...byStream];
    void Promise.allSettled(chains.map(([stream, records]) => this.store(stream, records))).then((outcomes) => {
      this.applying = false;
      // A chain whose append failed goes again; the others are stored and must not be appended twice.
      const failed = new Set<string>();
      let error: unknown;
      outcomes.forEach((outcome, index) => {
        if (outcome.status === 'rejected') {
          failed.add(chains[index][0]);
          error ??= outcome.reason;
        }
      });
      const done = failed.size === 0 ? round : round.filter(({ record }) => !failed.has(record.stream));
      this.stored += done.length;
      const perSegment = new Map<number, number>();
      for (const { segment } of done) perSegment.set(segment, (perSegment.get(segment) ?? 0) + 1);
      for (const [segment, count] of perSegment) this.journal.markApplied(segment, count);
      if (failed.size === 0) {
        this.applyError = undefined;
        this.settleWaiters();
        this.scheduleApply();
      } else {
        // The records stay in the journal (durable) and in order: try those chains again later.
        this.applyError = error;
        this.toApply = round.filter(({ record }) => failed.has(record.stream)).concat(this.toApply);
        this.onError('appending journaled access entries to the event store failed; retrying', error);
        for (const waiter of this.waiters.splice(0)) waiter.reject(new BackendUnavailableError('the access trail is not readable right now; try again'));
        this.retryTimer = setTimeout(() => {
          this.retryTimer = undefined;
          this.apply();
        }, APPLY_RETRY_MS);
        this.retryTimer.unref();
      }
      this.notifyIdle();
    });
  }

  /** Appends one chain's records at the revision this process expects; on a conflict, finds out what the store has. */
  private async store(stream: string, records: JournalRecord[]): Promise<void> {
    const chain = this.chains.get(stream)!;
    try {
      await this.events.append(stream, this.eventsOf(records), chain.stored < 0n ? 'no_stream' : chain.stored);
      chain.stored += BigInt(records.length);
    } catch (error) {
      if (!(error instanceof ConcurrencyError)) throw error;
      chain.stored = await this.reconcile(stream, records);
    }
  }

  /**
   * Appends to a chain the records the store does not have yet, checking that
   * they continue it: what is already stored (an append that landed although
   * its answer was lost, or a replayed journal) is skipped; a chain that went
   * another way (a second writer) is refused rather than forked. Returns the
   * stream's last revision.
   */
  private async reconcile(stream: string, records: JournalRecord[]): Promise<bigint> {
    const head = await readChainHead(this.events, stream);
    const missing = records.filter((record) => record.data.seq > (head?.seq ?? -1));
    if (missing.length === 0) return head ? head.revision : -1n;
    let prevHash = head?.prevHash ?? GENESIS_HASH;
    let seq = (head?.seq ?? -1) + 1;
    for (const { data } of missing) {
      if (data.seq !== seq || data.prev_hash !== prevHash) {
        throw new Error(`access chain ${stream}: journal entry ${data.seq} does not continue the stored chain at ${seq - 1}; another process wrote to it`);
      }
      prevHash = data.hash;
      seq++;
    }
    const result = await this.events.append(stream, this.eventsOf(missing), head ? head.revision : 'no_stream');
    return result.nextExpectedRevision;
  }

  /** Puts what a stopped process journaled into the store, chain by chain, and starts each chain after it. */
  private async recover(records: JournalRecord[]): Promise<void> {
    const byStream = new Map<string, JournalRecord[]>();
    for (const record of records) {
      let list = byStream.get(record.stream);
      if (!list) byStream.set(record.stream, (list = []));
      list.push(record);
    }
    for (const [stream, list] of byStream) await this.reconcile(stream, list);
  }

  private eventsOf(records: JournalRecord[]): Array<{ type: string; data: Record<string, unknown>; metadata: Record<string, unknown> }> {
    return records.map((record) => ({ type: 'ApiAccessRecorded', data: record.data as unknown as Record<string, unknown>, metadata: this.metadata }));
  }

  private settleWaiters(): void {
    let kept = 0;
    for (const waiter of this.waiters) {
      if (waiter.target <= this.stored) waiter.resolve();
      else this.waiters[kept++] = waiter;
    }
    this.waiters.length = kept;
  }

  private notifyIdle(): void {
    for (const resolve of this.idle) resolve();
    this.idle.clear();
  }
}

/** Where the embedded store's access journal lives. */
export function accessJournalDir(dataDir: string): string {
  return path.join(dataDir, 'access-journal');
}
