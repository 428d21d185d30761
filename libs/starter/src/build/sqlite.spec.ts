import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeColumns, SqliteFile, SqliteFormatError } from './sqlite.js';

/**
 * `__fixtures__/sample.sqlite` was written by Python's sqlite3 with 512-byte
 * pages (so the table spans interior pages and one row an overflow chain):
 *
 *   CREATE TABLE "NODE" (ID INTEGER NOT NULL PRIMARY KEY, LAT DOUBLE NOT NULL, NAME TEXT,
 *                        "the, tag" TEXT, N INTEGER, BLOBBY BLOB, UNIQUE (NAME, LAT))
 *   rows i = 1..400: ID = i * 7919 (row 400: 2^53 + 1), LAT = 5 + i / 1000,
 *     NAME = 'place {i} – Ɛ' (NULL when i % 10 == 0), "the, tag" = 'amenity={i % 3}' (row 123: 3000 × 'x'),
 *     N = [0, 1, -1, 127, -128, 40000, -8388608, 2^31 - 1, -2^40, 2^62][i % 10],
 *     BLOBBY = bytes [i % 256, 0, 255] when i % 50 == 0, else NULL
 *   ALTER TABLE NODE ADD COLUMN LATE TEXT; UPDATE NODE SET LATE = 'late' WHERE ID = 7919
 *   CREATE TABLE kv (k TEXT PRIMARY KEY, v) WITHOUT ROWID
 */
const SAMPLE = fileURLToPath(new URL('./__fixtures__/sample.sqlite', import.meta.url));
const N = [0, 1, -1, 127, -128, 40000, -8388608, 2 ** 31 - 1, -(2 ** 40), 2n ** 62n];

describe('SqliteFile', () => {
  it('reads every row of a multi-level table in rowid order, with every serial type and an overflow chain', () => {
    const db = new SqliteFile(SAMPLE);
    try {
      expect(db.pageSize).toBe(512);
      const rows = [...db.rows('node')];
      expect(rows).toHaveLength(400);
      rows.forEach((row, index) => {
        const i = index + 1;
        expect(row).toEqual({
          ID: i === 400 ? 2n ** 53n + 1n : i * 7919,
          LAT: 5 + i / 1000,
          NAME: i % 10 === 0 ? null : `place ${i} – Ɛ`,
          'the, tag': i === 123 ? 'x'.repeat(3000) : `amenity=${i % 3}`,
          N: N[i % 10],
          BLOBBY: i % 50 === 0 ? new Uint8Array([i % 256, 0, 255]) : null,
          LATE: i === 1 ? 'late' : null,
        });
      });
    } finally {
      db.close();
    }
  });

  it('lists the tables with their columns and refuses WITHOUT ROWID tables, unknown tables and other files', () => {
    const db = new SqliteFile(SAMPLE);
    try {
      expect(db.tables().map((table) => [table.name, table.columns, table.rowidColumn])).toEqual([
        ['NODE', ['ID', 'LAT', 'NAME', 'the, tag', 'N', 'BLOBBY', 'LATE'], 0],
        ['kv', ['k', 'v'], -1],
      ]);
      expect(() => [...db.rows('kv')]).toThrow(/WITHOUT ROWID/);
      expect(() => [...db.rows('missing')]).toThrow(SqliteFormatError);
    } finally {
      db.close();
    }
    const bogus = path.join(mkdtempSync(path.join(tmpdir(), 'sqlite-')), 'bogus.sqlite');
    writeFileSync(bogus, 'not a database at all, but long enough to have a header of a hundred bytes '.repeat(3));
    expect(() => new SqliteFile(bogus)).toThrow(/not an SQLite 3 database/);
  });

  it('reads column names from CREATE TABLE statements with quotes, types with commas and constraints', () => {
    expect(describeColumns('CREATE TABLE t (id integer primary key, [a b] DECIMAL(10, 2), `c` TEXT, CONSTRAINT u UNIQUE (c), PRIMARY KEY (c))')).toEqual({
      columns: ['id', 'a b', 'c'],
      rowidColumn: 0,
      withoutRowid: false,
    });
    expect(describeColumns('CREATE TABLE t (id INTEGER PRIMARY KEY DESC, v)').rowidColumn).toBe(-1);
    expect(describeColumns('CREATE TABLE t (v TEXT, "id" INTEGER NOT NULL, PRIMARY KEY ("id"))').rowidColumn).toBe(1);
    expect(describeColumns('CREATE TABLE t (id INT PRIMARY KEY, v)').rowidColumn).toBe(-1);
  });

  const pois = path.resolve(fileURLToPath(new URL('../../../../../shared/data/ghana-places/ghana_osm_pois_2019.sqlite', import.meta.url)));
  (existsSync(pois) ? it : it.skip)('reads the Ghana OSM POI extract as Python sqlite3 does (counts and a known row)', () => {
    const db = new SqliteFile(pois);
    try {
      const rows = [...db.rows('NODE')];
      expect(rows).toHaveLength(34_204);
      expect(rows.filter((row) => row.NAME !== null)).toHaveLength(7_684);
      expect(rows.find((row) => row.ID === 1390293382)).toEqual({
        ID: 1390293382,
        LAT: 5.546819,
        LON: -0.2062538,
        NAME: 'Makola Market',
        NAME_EN: null,
        NAME_DE: null,
        TAG: 'shop',
        VALUE: 'supermarket',
        POPULATION: null,
        ELEVATION: null,
      });
      const ids = rows.map((row) => Number(row.ID));
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
    } finally {
      db.close();
    }
  });
  if (!existsSync(pois)) console.log(`skipped the Ghana POI extract test: ${pois} is absent (../shared/data)`);
});
