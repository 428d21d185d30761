import { closeSync, constants, fdatasyncSync, ftruncateSync, mkdirSync, openSync, readdirSync, readFileSync, unlink, write } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { DirectoryLock } from '../../../platform/src/index.js';
import type { ApiAccessRecorded } from '../domain/access-events.js';

/** One linked access event, as the journal holds it until the event store has it. */
export interface JournalRecord {
  stream: string;
  data: ApiAccessRecorded['data'];
}

/** A segment is closed and a new one begun once it holds this many bytes. */
const SEGMENT_BYTES = 8 * 1024 * 1024;
const SEGMENT_NAME = /^segment-(\d{16})\.jsonl$/;

interface Segment {
  number: number;
  fd: number;
  bytes: number;
  /** Records written to it, and how many of them the event store holds durably. */
  written: number;
  applied: number;
}

/**
 * The access trail's write-ahead file (ADR 0004, "The journal"): linked access
 * events, one JSON line each, appended to numbered segments opened with
 * O_DSYNC, so one `write` is one durable group commit and costs one hand-over
 * to libuv's thread pool and one back. The caller keeps at most one write in
 * flight and gathers what arrives meanwhile into the next one.
 *
 * The journal is a buffer, not the record: every line is also appended to the
 * event store, and a segment is deleted once the store holds all of its lines
 * durably. What a crash leaves behind is read back by `open` and applied again
 * (the chain's sequence numbers tell what the store already has).
 *
 * One process owns the directory (DirectoryLock); a second is refused.
 */
export class AccessJournal {
  private readonly segments: Segment[] = [];
  private closed = false;
  /** False once a failed write could not be cut back off the segment: nothing more is written. */
  usable = true;

  private constructor(
    private readonly dir: string,
    private readonly lock: DirectoryLock,
    private nextNumber: number,
  ) {}

  /**
   * Takes the directory and reads what an earlier process left: the records of
   * every segment, in write order. A line cut short by a crash ends the read
   * (it was never acknowledged); a damaged line before the end is refused.
   * Call `discardRecovered` once those records are durable in the event store.
   */
  static async open(dir: string): Promise<{ journal: AccessJournal; recovered: JournalRecord[] }> {
    mkdirSync(dir, { recursive: true });
    const lock = await DirectoryLock.acquire(dir, { what: 'Access journal directory' });
    try {
      const numbers = segmentNumbers(dir);
      const recovered: JournalRecord[] = [];
      for (const number of numbers) recovered.push(...readSegment(path.join(dir, segmentName(number))));
      return { journal: new AccessJournal(dir, lock, (numbers.at(-1) ?? 0) + 1), recovered };
    } catch (error) {
      await lock.release();
      throw error;
    }
  }

  /** Deletes the segments `open` found (their records are now in the event store). */
  async discardRecovered(): Promise<void> {
    for (const number of segmentNumbers(this.dir)) {
      if (number < this.nextNumber && !this.segments.some((segment) => segment.number === number)) {
        await rm(path.join(this.dir, segmentName(number)), { force: true });
      }
    }
  }

  /**
   * Appends `records` durably (one write on an O_DSYNC descriptor) and calls
   * `done` once they are on disk, or with the error. Keep one call in flight.
   * Returns the segment the records went to, for `markApplied`.
   */
  append(records: JournalRecord[], done: (error: Error | null, segment: number) => void): void {
    if (this.closed || !this.usable) {
      done(new Error(this.closed ? 'the access journal is closed' : 'the access journal cannot be written'), 0);
      return;
    }
    let text = '';
    for (const record of records) text += `${JSON.stringify(record)}\n`;
    const bytes = Buffer.from(text);
    let segment: Segment;
    try {
      segment = this.writable(bytes.length);
    } catch (error) {
      done(error as Error, 0);
      return;
    }
    const before = segment.bytes;
    segment.bytes += bytes.length;
    segment.written += records.length;
    write(segment.fd, bytes, 0, bytes.length, null, (error, written) => {
      if (!error && written !== bytes.length) error = new Error(`short write to the access journal (${written} of ${bytes.length} bytes)`);
      if (error) this.cutBack(segment, before, records.length);
      done(error, segment.number);
    });
  }

  /**
   * After a failed write, part of it may be on disk: cut the segment back to
   * where the write began, so a later write does not follow a torn line (and a
   * recovery never sees links that were given out again). If even that fails
   * the journal stops taking writes.
   */
  private cutBack(segment: Segment, bytes: number, records: number): void {
    try {
      ftruncateSync(segment.fd, bytes);
      fdatasyncSync(segment.fd);
      segment.bytes = bytes;
      segment.written -= records;
    } catch {
      this.usable = false;
    }
  }

  /** `count` records of `segment` are durable in the event store; a closed segment with none left is deleted. */
  markApplied(segment: number, count: number): void {
    const entry = this.segments.find((candidate) => candidate.number === segment);
    if (!entry) return;
    entry.applied += count;
    this.collect();
  }

  /** Closes the current segment; deletes every segment whose records are all applied. */
  async close(): Promise<void> {
    this.closed = true;
    for (const segment of this.segments.splice(0)) {
      closeSync(segment.fd);
      if (segment.applied >= segment.written) await rm(path.join(this.dir, segmentName(segment.number)), { force: true });
    }
    await this.lock.release();
  }

  /** The segment to write `bytes` to: the current one, or a new one once it is full. */
  private writable(bytes: number): Segment {
    const current = this.segments.at(-1);
    if (current && (current.bytes === 0 || current.bytes + bytes <= SEGMENT_BYTES)) return current;
    const number = this.nextNumber++;
    const fd = openSync(path.join(this.dir, segmentName(number)), constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_EXCL | constants.O_DSYNC, 0o600);
    // The new file's name must survive a crash too; a directory sync happens once per segment (every few MB).
    const dirFd = openSync(this.dir, constants.O_RDONLY);
    try {
      fdatasyncSync(dirFd);
    } finally {
      closeSync(dirFd);
    }
    const segment: Segment = { number, fd, bytes: 0, written: 0, applied: 0 };
    this.segments.push(segment);
    this.collect();
    return segment;
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
  const text = readFileSync(file, 'utf8');
  const lines = text.split('\n');
  // Whatever follows the last newline was being written when the process stopped: never acknowledged.
  lines.pop();
  const records: JournalRecord[] = [];
  for (let index = 0; index < lines.length; index++) {
    try {
      records.push(parseRecord(lines[index]));
    } catch (error) {
      // O_DSYNC writes are acknowledged whole, so only the last write can be torn; anything earlier is damage.
      if (index === lines.length - 1) break;
      throw new Error(`access journal ${file}: line ${index + 1} is damaged (${(error as Error).message})`);
    }
  }
  return records;
}

function parseRecord(line: string): JournalRecord {
  const record = JSON.parse(line) as JournalRecord;
  if (typeof record?.stream !== 'string' || typeof record.data?.seq !== 'number' || typeof record.data.hash !== 'string') throw new Error('not a journal record');
  return record;
}
