import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { BackendUnavailableError, DirectoryInUseError, StreamNotFoundError, type EventRegistry, type EventStore } from '../../../platform/src/index.js';
import { accessStream, type AccessEntry } from '../domain/access-events.js';
import { AccessJournal, type JournalRecord } from '../recording/access-journal.js';
import { AccessRecorder, StoreAccessRecorder } from './access-recorder.js';

/** Entries committed to the journal in one write at most. */
const MAX_WRITE = 1000;
/**
 * Journal writes in flight at once. The disk takes two concurrent O_DSYNC
 * writes nearly as fast as one (ADR 0070), so a request arriving during a
 * write waits for its own write, not for the one before it to finish first;
 * the journal still answers them in order.
 */
const MAX_WRITES_IN_FLIGHT = 2;
/** Records handed to the store in one round at most. */
const MAX_APPLY = 5000;
/**
 * How long journaled records gather before a round goes to the store. A round
 * is one LMDB transaction per chain whatever its size, and a durable commit
 * costs ~0.5 ms of CPU, so rounds per second, not records, set the store's
 * share of the audit's cost. Readers in this process do not wait for it
 * (`applied()` starts a round at once); other processes see an entry this much
 * later.
 */
const APPLY_DELAY_MS = 25;
/** Pause before the store is tried again after a failed append (the entries wait safely in the journal). */
const APPLY_RETRY_MS = 1000;
/** Where in a stored event's metadata the journal names its record, `<journal>:<n>` (StoreAccessRecorder writes it). */
const JOURNAL_NOTE = 'journal';
/** Events read per page while looking for what a dead journal already stored. */
const SCAN_PAGE = 256;

interface Waiting {
  entry: AccessEntry;
  resolve: () => void;
  reject: (error: unknown) => void;
}

interface Applying {
  record: JournalRecord;
  segment: number;
}

export interface JournaledAccessRecorderOptions {
  /** Journal segment size (tests pass small ones); default 4 MB. */
  segmentBytes?: number;
}

/**
 * The access recorder of the embedded store (ADR 0004, "The journal"). A
 * request is answered once its entry is durable in this process's
 * AccessJournal: one O_DSYNC write per group of requests (two in flight at
 * most), one thread-pool hand-over each way. The journaled entries then go to the event store in
 * rounds, off the request path, through a StoreAccessRecorder, which links
 * them into their chains (and relinks after another api process's appends:
 * several may share one `DATA_DIR`, each with a journal of its own). Each
 * append names the journal record of its last entry in that event's metadata,
 * so after a crash the next process to open the journal root stores exactly
 * what is missing, once.
 *
 * Readers of the chains in this process call `applied()` first (exports,
 * as-of replays), so an answered request is in what they read; other
 * processes read it once the round lands (milliseconds).
 */
export class JournaledAccessRecorder extends AccessRecorder {
  private queue: Waiting[] = [];
  private writing = 0;
  private next = 0;
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

  private constructor(
    private readonly store: StoreAccessRecorder,
    private readonly journal: AccessJournal,
    private readonly name: string,
    private readonly dir: string,
    private readonly onError: (message: string, error: unknown) => void,
  ) {
    super();
  }

  /**
   * Stores what stopped processes left in the journals under `root`, then
   * opens a journal of this process's own there.
   */
  static async open(events: EventStore, registry: EventRegistry, root: string, onError: (message: string, error: unknown) => void, options: JournaledAccessRecorderOptions = {}): Promise<JournaledAccessRecorder> {
    await storeAbandoned(events, registry, root);
    const name = randomBytes(6).toString('hex');
    const dir = path.join(root, name);
    const { journal } = await AccessJournal.open(dir, options.segmentBytes);
    return new JournaledAccessRecorder(new StoreAccessRecorder(events, registry, { maxInFlight: 1 }), journal, name, dir, onError);
  }

  /**
   * For tools working on the chains beside or instead of the api process
   * (`npm run ops -- audit:verify`, exports, replays): stores what stopped
   * api processes journaled and the store lacks. `held` when a running api
   * process holds a journal (it stores its entries itself within a round).
   */
  static async settle(events: EventStore, registry: EventRegistry, root: string): Promise<'stored' | 'held'> {
    return (await storeAbandoned(events, registry, root)) > 0 ? 'held' : 'stored';
  }

  record(entry: AccessEntry): Promise<void> {
    if (this.broken) return Promise.reject(this.broken);
    const queued = new Promise<void>((resolve, reject) => this.queue.push({ entry, resolve, reject }));
    this.write();
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
      while (this.queue.length > 0 || this.writing > 0 || this.toApply.length > 0 || this.applying) {
        const journalDone = this.writing === 0 && this.queue.length === 0;
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
    // Every segment went to the store: the directory goes too (a later start finds nothing to do).
    if (this.toApply.length === 0 && this.stored >= this.journaled) rmSync(this.dir, { recursive: true, force: true });
  }

  /** Commits what is queued to the journal: up to MAX_WRITES_IN_FLIGHT writes at once, the next gathers meanwhile. */
  private write(): void {
    if (this.writing >= MAX_WRITES_IN_FLIGHT || this.queue.length === 0) return;
    if (this.broken) {
      for (const waiting of this.queue.splice(0)) waiting.reject(this.broken);
      this.notifyIdle();
      return;
    }
    const batch = this.queue.length <= MAX_WRITE ? this.queue : this.queue.slice(0, MAX_WRITE);
    this.queue = this.queue.length <= MAX_WRITE ? [] : this.queue.slice(MAX_WRITE);
    const first = this.next;
    const records: JournalRecord[] = batch.map((waiting, index) => ({ n: first + index, entry: waiting.entry }));
    this.next += records.length;
    this.writing++;
    this.journal.append(records, (error, segment) => {
      this.writing--;
      if (error) {
        // The journal cut the write off again (or cannot be written at all): those requests get 503, and their
        // numbers are given out again unless a later write took numbers meanwhile (a gap in the numbers is harmless:
        // recovery stores the records above the last one a chain holds).
        if (this.next === first + records.length) this.next = first;
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

  /** Hands journaled records to the store recorder (one append per chain for the round); one round in flight. */
  private apply(): void {
    if (this.applying || this.retryTimer || this.applyTimer || this.toApply.length === 0) return;
    const round = this.toApply.length <= MAX_APPLY ? this.toApply : this.toApply.slice(0, MAX_APPLY);
    this.toApply = this.toApply.length <= MAX_APPLY ? [] : this.toApply.slice(MAX_APPLY);
    this.applying = true;
    void this.store.recordAll(round.map(({ record }) => ({ entry: record.entry, ref: `${this.name}:${record.n}` }))).then((errors) => {
      this.applying = false;
      const failed: Applying[] = [];
      let error: unknown;
      const perSegment = new Map<number, number>();
      for (let index = 0; index < round.length; index++) {
        if (errors[index] !== undefined) {
          failed.push(round[index]);
          error ??= errors[index];
        } else perSegment.set(round[index].segment, (perSegment.get(round[index].segment) ?? 0) + 1);
      }
      this.stored += round.length - failed.length;
      for (const [segment, count] of perSegment) this.journal.markApplied(segment, count);
      if (failed.length === 0) {
        this.applyError = undefined;
        this.settleWaiters();
        this.scheduleApply();
      } else {
        // The failed records stay in the journal (durable) and go again later; the stored ones must not.
        this.applyError = error;
        this.toApply = failed.concat(this.toApply);
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

/** Where the embedded store's access journals live (one directory per api process). */
export function accessJournalDir(dataDir: string): string {
  return path.join(dataDir, 'access-journal');
}

/**
 * Stores, for every journal under `root` that no running process holds, the
 * records the store lacks, then deletes that journal. Returns how many
 * journals are held by running processes (left alone).
 */
async function storeAbandoned(events: EventStore, registry: EventRegistry, root: string): Promise<number> {
  mkdirSync(root, { recursive: true });
  let held = 0;
  for (const name of readdirSync(root, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name)) {
    const dir = path.join(root, name);
    let opened: Awaited<ReturnType<typeof AccessJournal.open>>;
    try {
      opened = await AccessJournal.open(dir, undefined, { waitMs: 1000, prepare: false });
    } catch (error) {
      if (error instanceof DirectoryInUseError) {
        held++;
        continue;
      }
      throw error;
    }
    try {
      await storeMissing(events, registry, name, opened.recovered);
    } finally {
      await opened.journal.close();
    }
    rmSync(dir, { recursive: true, force: true });
  }
  return held;
}

/** Appends the records of journal `name` that its chains do not hold yet, in journal order. */
async function storeMissing(events: EventStore, registry: EventRegistry, name: string, records: JournalRecord[]): Promise<void> {
  const byStream = new Map<string, JournalRecord[]>();
  for (const record of records) {
    const stream = accessStream(record.entry.account_id);
    let list = byStream.get(stream);
    if (!list) byStream.set(stream, (list = []));
    list.push(record);
  }
  const store = new StoreAccessRecorder(events, registry, { maxInFlight: 1 });
  for (const [stream, list] of byStream) {
    const stored = await lastStored(events, stream, name, list[0]);
    const errors = await store.recordAll(list.filter((record) => record.n > stored).map((record) => ({ entry: record.entry, ref: `${name}:${record.n}` })));
    const error = errors.find((candidate) => candidate !== undefined);
    if (error !== undefined) throw error;
  }
}

/**
 * The highest record number of journal `name` that `stream` holds, or -1. The
 * chain is read backwards until an event of that journal, or an event stored
 * before the journal's first record for the chain arrived (nothing of the
 * journal can be older), or its start.
 */
async function lastStored(events: EventStore, stream: string, name: string, first: JournalRecord): Promise<number> {
  const prefix = `${name}:`;
  const since = Date.parse(first.entry.at) - 60_000;
  let from: bigint | undefined;
  for (;;) {
    let page;
    try {
      page = await events.readStream(stream, { direction: 'backwards', maxCount: SCAN_PAGE, ...(from === undefined ? {} : { fromRevision: from }) });
    } catch (error) {
      if (error instanceof StreamNotFoundError) return -1;
      throw error;
    }
    for (const event of page) {
      const note = event.metadata[JOURNAL_NOTE];
      if (typeof note === 'string' && note.startsWith(prefix)) return Number(note.slice(prefix.length));
      if (event.createdAt.getTime() < since) return -1;
    }
    const last = page.at(-1);
    if (page.length < SCAN_PAGE || !last || last.revision === 0n) return -1;
    from = last.revision - 1n;
  }
}
