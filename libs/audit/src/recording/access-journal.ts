import { closeSync, constants, fdatasyncSync, mkdirSync, openSync, readdirSync, readFileSync, unlink, write, writeSync } from 'node:fs';
import { open, rm } from 'node:fs/promises';
import path from 'node:path';
import { DirectoryLock } from '../../../platform/src/index.js';
import type { AccessEntry } from '../domain/access-events.js';

/** One access entry as the journal holds it until the event store has it; `n` counts the journal's records. */
export interface JournalRecord {
  n: number;
  entry: AccessEntry;
}

/** A segment's size (tests pass smaller): written with zeros before use, so a commit never changes the file's size. */
const SEGMENT_BYTES = 4 * 1024 * 1024;
const SEGMENT_NAME = /^segment-(\d{16})\.jsonl$/;
const ZEROS = Buffer.alloc(1024 * 1024);

/** node:fs `write` at a position; tests pass one that completes writes out of order or fails them. */
export type PositionalWrite = (fd: number, buffer: Buffer, offset: number, length: number, position: number, callback: (error: NodeJS.ErrnoException | null, written: number) => void) => void;

type Done = (error: Error | null, segment: number) => void;

/** A write given to the thread pool and not yet answered to its caller. */
interface Pending {
  segment: Segment;
  at: number;
  length: number;
  records: number;
  done: Done;
  /** 'writing' until the write returns; then 'ok' or its error. */
  state: 'writing' | 'ok' | Error;
}

interface Segment {
  number: number;
  fd: number;
  /** Bytes allocated (zeros written), and bytes of records written from the start. */
  size: number;
  bytes: number;
  /** Records written to it, and how many of them the event store holds durably. */
  written: number;
  applied: number;
}

/**
 * The access trail's write-ahead file (ADR 0004, "The journal"): access
 * events, one JSON line each, written into numbered segments opened with
 * O_DSYNC, so one `write` is one durable group commit and costs one hand-over
 * to libuv's thread pool and one back. Several writes may be in flight at once
 * (the disk takes concurrent O_DSYNC writes nearly as fast as one, ADR 0070);
 * each is answered only once it and every write before it are durable, so an
 * answered record never lies after a hole. A failed write fails the writes
 * after it too, and their bytes are zeroed again together. A segment is left
 * for the next only when nothing is in flight, so within each segment the
 * records still end at the first zero byte.
 *
 * Segments are allocated ahead, full of zeros and synced, and written in
 * place (as PostgreSQL does with its WAL): a commit that does not grow the
 * file needs no metadata in the file system's journal, which halved the
 * kernel's CPU per commit (ADR 0004). The next segment is prepared in the
 * background once the current one is half full. On reading, the records end at
 * the first zero byte.
 *
 * The journal is a buffer, not the record: every entry is also appended to the
 * event store, and a segment is deleted once the store holds all of it
 * durably. What a crash leaves behind is read back by `open` and stored by the
 * next process (the record numbers, kept in the stored events' metadata, tell
 * what the store already has).
 *
 * One process owns the directory (DirectoryLock); a second is refused.
 */
export class AccessJournal {
  private readonly segments: Segment[] = [];
  private spare: Promise<Segment> | undefined;
  private closed = false;
  /** Writes in flight or waiting for an earlier one, in write order. */
  private readonly pending: Pending[] = [];
  /** Appends that need the next segment, waiting for the writes in flight to be answered. */
  private readonly deferred: Array<() => void> = [];
  /** False once a failed write could not be cut back off the segment: nothing more is written. */
  usable = true;

  private constructor(
    private readonly dir: string,
    private readonly lock: DirectoryLock,
    private nextNumber: number,
    private readonly segmentBytes: number,
    private readonly writeAt: PositionalWrite,
  ) {}

  /**
   * Takes the directory and reads what an earlier process left: the records of
   * every segment, in write order. A line cut short by a crash ends the read
   * (it was never acknowledged); a damaged line before the end is refused.
   * The caller stores those records and then deletes the directory.
   */
  static async open(dir: string, segmentBytes = SEGMENT_BYTES, options: { waitMs?: number; prepare?: boolean; write?: PositionalWrite } = {}): Promise<{ journal: AccessJournal; recovered: JournalRecord[] }> {
    mkdirSync(dir, { recursive: true });
    const lock = await DirectoryLock.acquire(dir, { what: 'Access journal directory', waitMs: options.waitMs });
    try {
      const numbers = segmentNumbers(dir);
      const recovered: JournalRecord[] = [];
      for (const number of numbers) recovered.push(...readSegment(path.join(dir, segmentName(number))));
      const journal = new AccessJournal(dir, lock, (numbers.at(-1) ?? 0) + 1, segmentBytes, options.write ?? write);
      // A journal opened only to read what it holds (recovery) gets no segment to write to.
      if (options.prepare !== false) journal.segments.push(await journal.prepare(segmentBytes));
      return { journal, recovered };
    } catch (error) {
      await lock.release();
      throw error;
    }
  }

  /**
   * Writes `records` durably (one write on an O_DSYNC descriptor) and calls
   * `done` once they and every earlier append's records are on disk, or with
   * the error. Calls are answered in the order they were made. Passes the
   * segment the records went to, for `markApplied`.
   */
  append(records: JournalRecord[], done: Done): void {
    if (this.closed || !this.usable) {
      done(new Error(this.closed ? 'the access journal is closed' : 'the access journal cannot be written'), 0);
      return;
    }
    let text = '';
    for (const record of records) text += `${JSON.stringify(record)}\n`;
    const bytes = Buffer.from(text);
    const current = this.segments.at(-1);
    if (current && current.bytes + bytes.length <= current.size) {
      this.writeTo(current, bytes, records.length, done);
      return;
    }
    // The next segment only once this one's writes are answered: a record in it must never be durable while an
    // earlier one, still in flight here, is not.
    if (this.pending.length > 0) {
      this.deferred.push(() => this.append(records, done));
      return;
    }
    this.rotate(bytes.length).then(
      (segment) => this.writeTo(segment, bytes, records.length, done),
      (error: Error) => done(error, 0),
    );
  }

  /**
   * Moves on to the spare (prepared in the background, or now if it is not
   * ready); a write larger than a whole segment gets a segment of its own
   * after it, so the numbers stay in write order.
   */
  private async rotate(bytes: number): Promise<Segment> {
    const spare = this.spare ?? this.prepare(this.segmentBytes);
    this.spare = undefined;
    let segment = this.adopt(await spare);
    if (segment.size < bytes) segment = this.adopt(await this.prepare(bytes));
    this.collect();
    return segment;
  }

  /** Makes a prepared segment the one written to (or closes it again if the journal closed meanwhile). */
  private adopt(segment: Segment): Segment {
    if (this.closed) {
      closeSync(segment.fd);
      throw new Error('the access journal is closed');
    }
    this.segments.push(segment);
    return segment;
  }

  /** `count` records of `segment` are durable in the event store; a closed segment with none left is deleted. */
  markApplied(segment: number, count: number): void {
    const entry = this.segments.find((candidate) => candidate.number === segment);
    if (!entry) return;
    entry.applied += count;
    this.collect();
  }

  /** Closes the segments; deletes every one whose records are all applied, and the unused spare. */
  async close(): Promise<void> {
    this.closed = true;
    const spare = this.spare;
    this.spare = undefined;
    if (spare) {
      const unused = await spare.catch(() => undefined);
      if (unused) this.segments.push(unused);
    }
    for (const segment of this.segments.splice(0)) {
      closeSync(segment.fd);
      if (segment.applied >= segment.written) await rm(path.join(this.dir, segmentName(segment.number)), { force: true });
    }
    await this.lock.release();
  }

  private writeTo(segment: Segment, bytes: Buffer, records: number, done: Done): void {
    const at = segment.bytes;
    segment.bytes += bytes.length;
    segment.written += records;
    if (!this.spare && segment.bytes > segment.size / 2) {
      this.spare = this.prepare(this.segmentBytes);
      this.spare.catch(() => undefined); // a failure surfaces when the spare is needed
    }
    const item: Pending = { segment, at, length: bytes.length, records, done, state: 'writing' };
    this.pending.push(item);
    this.writeAt(segment.fd, bytes, 0, bytes.length, at, (error, written) => {
      item.state = error ?? (written === bytes.length ? 'ok' : new Error(`short write to the access journal (${written} of ${bytes.length} bytes)`));
      this.answer();
    });
  }

  /**
   * Answers the writes in order: each durable one whose predecessors are all
   * durable. A failed write is answered once every write after it has
   * returned too: all of them fail, and their bytes are zeroed together.
   */
  private answer(): void {
    while (this.pending.length > 0 && this.pending[0].state === 'ok') {
      const item = this.pending.shift()!;
      item.done(null, item.segment.number);
    }
    const head = this.pending[0];
    if (head && head.state !== 'writing' && !this.pending.some((item) => item.state === 'writing')) {
      const failed = this.pending.splice(0);
      const last = failed[failed.length - 1];
      this.cutBack(head.segment, head.at, last.at + last.length - head.at, failed.reduce((sum, item) => sum + item.records, 0));
      const error = head.state as Error;
      for (const item of failed) item.done(error, item.segment.number);
    }
    if (this.pending.length === 0) for (const append of this.deferred.splice(0)) append();
  }

  /**
   * After a failed write, part of it (and of the writes after it) may be on
   * disk: zero it again, so a later write does not follow a torn line (and a
   * recovery never sees records that were never answered). If even that fails
   * the journal stops taking writes.
   */
  private cutBack(segment: Segment, at: number, length: number, records: number): void {
    try {
      for (let offset = 0; offset < length; offset += ZEROS.length) writeSync(segment.fd, ZEROS, 0, Math.min(ZEROS.length, length - offset), at + offset);
      fdatasyncSync(segment.fd);
      segment.bytes = at;
      segment.written -= records;
    } catch {
      this.usable = false;
    }
  }

  /** A new segment file of `size` zeros, synced, its name synced in the directory, open for O_DSYNC writes. */
  private async prepare(size: number): Promise<Segment> {
    const number = this.nextNumber++;
    const file = path.join(this.dir, segmentName(number));
    const handle = await open(file, 'wx', 0o600);
    try {
      for (let offset = 0; offset < size; offset += ZEROS.length) await handle.write(ZEROS, 0, Math.min(ZEROS.length, size - offset));
      await handle.datasync();
    } finally {
      await handle.close();
    }
    const dir = await open(this.dir, 'r');
    try {
      await dir.sync();
    } finally {
      await dir.close();
    }
    const fd = openSync(file, constants.O_WRONLY | constants.O_DSYNC);
    return { number, fd, size, bytes: 0, written: 0, applied: 0 };
  }

  private collect(): void {
    // Every segment but the one being written is closed: delete it once the store holds all it had.
    while (this.segments.length > 1 && this.segments[0].applied >= this.segments[0].written) {
      const done = this.segments.shift()!;
      closeSync(done.fd);
      unlink(path.join(this.dir, segmentName(done.number)), () => undefined);
    }
  }
}

function segmentName(number: number): string {
  return `segment-${String(number).padStart(16, '0')}.jsonl`;
}

function segmentNumbers(dir: string): number[] {
  return readdirSync(dir)
    .map((name) => SEGMENT_NAME.exec(name))
    .filter((match): match is RegExpExecArray => match !== null)
    .map((match) => Number(match[1]))
    .sort((a, b) => a - b);
}

function readSegment(file: string): JournalRecord[] {
  const raw = readFileSync(file);
  // Segments are allocated as zeros: the records end where the zeros begin.
  const end = raw.indexOf(0);
  const lines = raw.toString('utf8', 0, end < 0 ? raw.length : end).split('\n');
  // Whatever follows the last newline was being written when the process stopped: never acknowledged.
  lines.pop();
  const records: JournalRecord[] = [];
  for (let index = 0; index < lines.length; index++) {
    try {
      records.push(parseRecord(lines[index]));
    } catch (error) {
      // O_DSYNC writes land sector by sector and a sector not written is still zeros, so whatever a crash cut
      // (the last write, or two overlapping ones) ends at a zero byte: only the last line can be torn, anything
      // earlier is damage.
      if (index === lines.length - 1) break;
      throw new Error(`access journal ${file}: line ${index + 1} is damaged (${(error as Error).message})`);
    }
  }
  return records;
}

function parseRecord(line: string): JournalRecord {
  const record = JSON.parse(line) as JournalRecord;
  if (typeof record?.n !== 'number' || typeof record.entry?.request_id !== 'string') throw new Error('not a journal record');
  return record;
}
