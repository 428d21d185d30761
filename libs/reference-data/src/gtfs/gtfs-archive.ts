import path from 'node:path';
import type { Readable } from 'node:stream';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { parse } from 'csv-parse';

/**
 * A GTFS feed as a zip archive (yauzl: central directory, streamed inflate,
 * entry sizes checked against the directory), its tables read as CSV rows
 * (csv-parse: quoted fields, embedded commas and newlines, a UTF-8 byte-order
 * mark, CRLF, columns in any order and unknown ones ignored). Feeds zipped with
 * their files inside one folder are read too.
 */

export class GtfsArchiveError extends Error {}

/** One table larger than this, uncompressed, is refused (a zip bomb or not a city's feed). */
const MAX_ENTRY_BYTES = 4 * 1024 ** 3;

export interface CsvRow {
  /**
   * 1-based line of the row in the file (the header is line 1), counted as
   * records: exact unless a quoted field above spans lines (csv-parse's own
   * per-record line info doubles the parse time of a large table).
   */
  line: number;
  get(column: string): string;
}

export class GtfsArchive {
  private constructor(
    private readonly zip: ZipFile,
    private readonly entries: Map<string, Entry>,
  ) {}

  static async open(file: string): Promise<GtfsArchive> {
    let zip: ZipFile;
    try {
      zip = await yauzl.openPromise(file, { autoClose: false, lazyEntries: true, strictFileNames: false });
    } catch (error) {
      throw new GtfsArchiveError(`${path.basename(file)} is not a readable zip archive: ${(error as Error).message}`);
    }
    const entries = new Map<string, Entry>();
    try {
      for await (const entry of zip.eachEntry()) {
        if (entry.fileName.endsWith('/') || entry.fileName.startsWith('__MACOSX/')) continue;
        const name = path.posix.basename(entry.fileName);
        if (!name.endsWith('.txt') || name.startsWith('.')) continue;
        // A feed zipped with its folder: the shallowest copy of a name wins.
        const known = entries.get(name);
        if (!known || known.fileName.split('/').length > entry.fileName.split('/').length) entries.set(name, entry);
      }
    } catch (error) {
      zip.close();
      throw new GtfsArchiveError(`${path.basename(file)}: broken zip archive: ${(error as Error).message}`);
    }
    return new GtfsArchive(zip, entries);
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  size(name: string): number {
    return this.entries.get(name)?.uncompressedSize ?? 0;
  }

  get names(): string[] {
    return [...this.entries.keys()].sort();
  }

  close(): void {
    this.zip.close();
  }

  /**
   * The rows of a table, as column → trimmed value (empty for a column the
   * file lacks or a short row leaves out). `onBytes` reports the decompressed
   * bytes read so far. A CSV syntax error ends the table with GtfsArchiveError
   * naming the line.
   */
  async *rows(name: string, onBytes?: (bytes: number) => void): AsyncGenerator<CsvRow> {
    const entry = this.entries.get(name);
    if (!entry) return;
    if (entry.uncompressedSize > MAX_ENTRY_BYTES) throw new GtfsArchiveError(`${name} is ${entry.uncompressedSize} bytes uncompressed; at most ${MAX_ENTRY_BYTES} are read`);
    let input: Readable;
    try {
      input = await this.zip.openReadStreamPromise(entry);
    } catch (error) {
      throw new GtfsArchiveError(`${name}: cannot be read from the archive: ${(error as Error).message}`);
    }
    let bytes = 0;
    input.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
    });
    const parser = input.pipe(
      parse({
        bom: true,
        relax_column_count: true,
        relax_quotes: true,
        skip_empty_lines: false,
      }),
    );
    input.on('error', (error) => parser.destroy(error));
    let columns: Map<string, number> | null = null;
    let line = 0;
    try {
      for await (const record of parser as AsyncIterable<string[]>) {
        line++;
        if (!columns) {
          if (record.every((value) => value.trim() === '')) continue;
          columns = new Map(record.map((column, i) => [column.trim().toLowerCase(), i]));
          continue;
        }
        if (record.every((value) => value.trim() === '')) continue;
        const indexes = columns;
        yield { line, get: (column: string) => (record[indexes.get(column) ?? -1] ?? '').trim() };
        if (line % 5000 === 0) onBytes?.(bytes);
      }
    } catch (error) {
      if (error instanceof GtfsArchiveError) throw error;
      throw new GtfsArchiveError(`${name}: ${(error as Error).message}`);
    } finally {
      input.destroy();
    }
    onBytes?.(entry.uncompressedSize);
  }

  /** The header of a table (lower-cased, trimmed), or null when the file is absent or empty. */
  async columns(name: string): Promise<string[] | null> {
    if (!this.entries.has(name)) return null;
    const entry = this.entries.get(name)!;
    const input = await this.zip.openReadStreamPromise(entry);
    const parser = input.pipe(parse({ bom: true, relax_column_count: true, relax_quotes: true, skip_empty_lines: true, to_line: 1 }));
    try {
      for await (const record of parser as AsyncIterable<string[]>) return record.map((column) => column.trim().toLowerCase());
      return null;
    } finally {
      input.destroy();
    }
  }
}
