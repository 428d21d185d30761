import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

/**
 * A read-only reader of SQLite 3 database files (https://sqlite.org/fileformat.html),
 * enough to scan one rowid table in rowid order: the starter build reads an OSM
 * extract shipped as SQLite (`ghana_osm_pois_2019.sqlite`) and Node 20 has no
 * SQLite. It walks the table's b-tree page by page (positioned reads, never the
 * whole file), follows overflow chains, and decodes records. Not handled, and
 * refused with a message: UTF-16 databases and WITHOUT ROWID tables. Reading a
 * file another process is writing is not supported (no locking, no journal).
 */

export type SqliteValue = null | number | bigint | string | Uint8Array;

export class SqliteFormatError extends Error {}

const HEADER = 'SQLite format 3\0';
const TABLE_INTERIOR = 0x05;
const TABLE_LEAF = 0x0d;

export class SqliteFile {
  private readonly fd: number;
  readonly pageSize: number;
  /** Page size less the bytes reserved at the end of each page (extensions use them). */
  private readonly usable: number;
  readonly pages: number;

  constructor(readonly file: string) {
    this.fd = openSync(file, 'r');
    try {
      const header = Buffer.alloc(100);
      if (readSync(this.fd, header, 0, 100, 0) < 100 || header.toString('latin1', 0, 16) !== HEADER) throw new SqliteFormatError(`${file} is not an SQLite 3 database`);
      const raw = header.readUInt16BE(16);
      this.pageSize = raw === 1 ? 65536 : raw;
      if (this.pageSize < 512 || (this.pageSize & (this.pageSize - 1)) !== 0) throw new SqliteFormatError(`${file}: invalid page size ${raw}`);
      this.usable = this.pageSize - header[20];
      const encoding = header.readUInt32BE(56);
      if (encoding !== 0 && encoding !== 1) throw new SqliteFormatError(`${file}: text encoding ${encoding === 2 ? 'UTF-16le' : 'UTF-16be'} is not read; only UTF-8`);
      this.pages = Math.floor(fstatSync(this.fd).size / this.pageSize);
    } catch (error) {
      closeSync(this.fd);
      throw error;
    }
  }

  close(): void {
    closeSync(this.fd);
  }

  /** The tables of the schema, with their column names and the column that aliases the rowid (`INTEGER PRIMARY KEY`), if any. */
  tables(): SqliteTable[] {
    const tables: SqliteTable[] = [];
    for (const { values } of this.scan(1)) {
      const [type, name, , rootpage, sql] = values;
      if (type !== 'table' || typeof name !== 'string' || typeof rootpage !== 'number' || typeof sql !== 'string') continue;
      tables.push({ name, rootpage, ...describeColumns(sql) });
    }
    return tables;
  }

  table(name: string): SqliteTable {
    const table = this.tables().find((candidate) => candidate.name.toLowerCase() === name.toLowerCase());
    if (!table) throw new SqliteFormatError(`${this.file} has no table "${name}"`);
    if (table.withoutRowid) throw new SqliteFormatError(`${this.file}: table "${name}" is WITHOUT ROWID, which is not read`);
    return table;
  }

  /** Every row of `table` in rowid order, as column name → value (the rowid alias column carries the rowid). */
  *rows(name: string): Generator<Record<string, SqliteValue>> {
    const table = this.table(name);
    for (const { rowid, values } of this.scan(table.rootpage)) {
      const row: Record<string, SqliteValue> = {};
      table.columns.forEach((column, i) => {
        // A column added by ALTER TABLE is absent from older records: its value is NULL (its default is not applied here).
        row[column] = i === table.rowidColumn ? rowid : (values[i] ?? null);
      });
      yield row;
    }
  }

  /** The cells of the table b-tree rooted at `root`, in rowid order. */
  private *scan(root: number): Generator<{ rowid: number | bigint; values: SqliteValue[] }> {
    const stack: number[] = [root];
    const seen = new Set<number>();
    while (stack.length > 0) {
      const number = stack.pop()!;
      if (seen.has(number)) throw new SqliteFormatError(`${this.file}: page ${number} is reached twice (corrupt b-tree)`);
      seen.add(number);
      const page = this.page(number);
      const start = number === 1 ? 100 : 0;
      const type = page[start];
      const cells = page.readUInt16BE(start + 3);
      if (type === TABLE_INTERIOR) {
        // Children left to right: pushed right-most first so the stack pops them in rowid order.
        stack.push(page.readUInt32BE(start + 8));
        for (let i = cells - 1; i >= 0; i--) stack.push(page.readUInt32BE(page.readUInt16BE(start + 12 + 2 * i)));
      } else if (type === TABLE_LEAF) {
        for (let i = 0; i < cells; i++) yield this.leafCell(page, page.readUInt16BE(start + 8 + 2 * i));
      } else {
        throw new SqliteFormatError(`${this.file}: page ${number} is not a table b-tree page (type ${type})`);
      }
    }
  }

  private leafCell(page: Buffer, offset: number): { rowid: number | bigint; values: SqliteValue[] } {
    const size = varint(page, offset);
    const rowid = varint(page, size.next);
    const payloadSize = Number(size.value);
    const local = this.localSize(payloadSize);
    let payload = page.subarray(rowid.next, rowid.next + local);
    if (local < payloadSize) {
      const parts = [payload];
      let remaining = payloadSize - local;
      let next = page.readUInt32BE(rowid.next + local);
      while (remaining > 0) {
        if (next === 0) throw new SqliteFormatError(`${this.file}: overflow chain ends early`);
        const overflow = this.page(next);
        const take = Math.min(remaining, this.usable - 4);
        parts.push(overflow.subarray(4, 4 + take));
        remaining -= take;
        next = overflow.readUInt32BE(0);
      }
      payload = Buffer.concat(parts);
    }
    return { rowid: rowid.value, values: decodeRecord(payload) };
  }

  /** How much of a payload sits on the leaf page itself (fileformat.html, "B-tree Pages"). */
  private localSize(payload: number): number {
    const max = this.usable - 35;
    if (payload <= max) return payload;
    const min = Math.floor(((this.usable - 12) * 32) / 255) - 23;
    const k = min + ((payload - min) % (this.usable - 4));
    return k <= max ? k : min;
  }

  private page(number: number): Buffer {
    if (number < 1 || number > this.pages) throw new SqliteFormatError(`${this.file}: page ${number} is outside the file (${this.pages} pages)`);
    const buffer = Buffer.alloc(this.pageSize);
    readSync(this.fd, buffer, 0, this.pageSize, (number - 1) * this.pageSize);
    return buffer;
  }
}

export interface SqliteTable {
  name: string;
  rootpage: number;
  columns: string[];
  /** Index of the `INTEGER PRIMARY KEY` column, whose value is the rowid (stored as NULL in the record); -1 if none. */
  rowidColumn: number;
  withoutRowid: boolean;
}

/** Column names from a `CREATE TABLE` statement: the first word of every definition that is not a table constraint. */
export function describeColumns(sql: string): Pick<SqliteTable, 'columns' | 'rowidColumn' | 'withoutRowid'> {
  const open = sql.indexOf('(');
  const close = sql.lastIndexOf(')');
  if (open < 0 || close < open) throw new SqliteFormatError(`cannot read the columns of: ${sql.slice(0, 80)}`);
  const definitions: string[] = [];
  let depth = 0;
  let quote = '';
  let current = '';
  for (const char of sql.slice(open + 1, close)) {
    if (quote) {
      if (char === quote) quote = '';
    } else if (char === '"' || char === "'" || char === '`' || char === '[') quote = char === '[' ? ']' : char;
    else if (char === '(') depth++;
    else if (char === ')') depth--;
    else if (char === ',' && depth === 0) {
      definitions.push(current.trim());
      current = '';
      continue;
    }
    current += char;
  }
  definitions.push(current.trim());
  const columns: string[] = [];
  const integerTyped = new Set<number>();
  let rowidColumn = -1;
  let tableKey: string | null = null;
  for (const definition of definitions) {
    const constraint = /^(?:constraint\s+\S+\s+)?primary\s+key\s*\(\s*["`[]?([^"`\],\s]+)["`\]]?\s*(asc)?\s*\)/i.exec(definition);
    if (constraint) tableKey = constraint[1];
    if (/^(constraint|primary\s+key|unique|check|foreign\s+key)\b/i.test(definition)) continue;
    const match = /^(?:"((?:[^"]|"")*)"|`([^`]*)`|\[([^\]]*)\]|'([^']*)'|(\S+))\s*(.*)$/s.exec(definition);
    if (!match) continue;
    const name = match[1]?.replace(/""/g, '"') ?? match[2] ?? match[3] ?? match[4] ?? match[5];
    const rest = match[6].trim();
    // Only a column declared exactly INTEGER aliases the rowid (fileformat.html, "ROWID and the INTEGER PRIMARY KEY"); DESC does not.
    if (/^integer\b(?!\s*\()/i.test(rest)) {
      integerTyped.add(columns.length);
      if (/\bprimary\s+key\b(?!\s+desc\b)/i.test(rest)) rowidColumn = columns.length;
    }
    columns.push(name);
  }
  if (rowidColumn < 0 && tableKey !== null) {
    const at = columns.findIndex((column) => column.toLowerCase() === tableKey!.toLowerCase());
    if (integerTyped.has(at)) rowidColumn = at;
  }
  return { columns, rowidColumn, withoutRowid: /\)\s*without\s+rowid\s*;?\s*$/i.test(sql) };
}

/** A record (fileformat.html, "Record Format"): a header of serial types, then the values. */
export function decodeRecord(payload: Buffer): SqliteValue[] {
  const headerSize = varint(payload, 0);
  const types: number[] = [];
  for (let at = headerSize.next; at < Number(headerSize.value); ) {
    const type = varint(payload, at);
    types.push(Number(type.value));
    at = type.next;
  }
  const values: SqliteValue[] = [];
  let at = Number(headerSize.value);
  for (const type of types) {
    if (type === 0) values.push(null);
    else if (type >= 1 && type <= 6) {
      const bytes = [1, 2, 3, 4, 6, 8][type - 1];
      values.push(readInteger(payload, at, bytes));
      at += bytes;
    } else if (type === 7) {
      values.push(payload.readDoubleBE(at));
      at += 8;
    } else if (type === 8 || type === 9) values.push(type - 8);
    else if (type >= 12) {
      const length = (type - (type % 2 === 0 ? 12 : 13)) / 2;
      const bytes = payload.subarray(at, at + length);
      values.push(type % 2 === 0 ? new Uint8Array(bytes) : bytes.toString('utf8'));
      at += length;
    } else throw new SqliteFormatError(`reserved serial type ${type}`);
  }
  return values;
}

function readInteger(buffer: Buffer, at: number, bytes: number): number | bigint {
  if (bytes <= 6) return buffer.readIntBE(at, bytes);
  const value = buffer.readBigInt64BE(at);
  return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value;
}

/** SQLite's varint: 1 to 9 bytes, big-endian, 7 bits a byte and all 8 of the ninth; a 64-bit two's complement value. */
export function varint(buffer: Buffer, at: number): { value: number | bigint; next: number } {
  // Up to 7 bytes (49 bits) fit a double exactly: the usual case, without BigInt.
  let fast = 0;
  for (let i = 0; i < 7; i++) {
    const byte = buffer[at + i];
    if (byte === undefined) throw new SqliteFormatError('varint runs past the end of its page');
    fast = fast * 128 + (byte & 0x7f);
    if (byte < 0x80) return { value: fast, next: at + i + 1 };
  }
  let value = 0n;
  for (let i = 0; i < 9; i++) {
    const byte = buffer[at + i];
    if (byte === undefined) throw new SqliteFormatError('varint runs past the end of its page');
    if (i === 8) {
      value = (value << 8n) | BigInt(byte);
      return { value: small(BigInt.asIntN(64, value)), next: at + 9 };
    }
    value = (value << 7n) | BigInt(byte & 0x7f);
    if (byte < 0x80) return { value: small(value), next: at + i + 1 };
  }
  throw new SqliteFormatError('unreachable');
}

function small(value: bigint): number | bigint {
  return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value;
}
