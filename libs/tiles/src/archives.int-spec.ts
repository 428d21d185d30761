import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { TileArchives } from './archives.js';
import { ArchiveName } from './domain/archive-name.js';
import { ArchiveNotFoundError } from './domain/errors.js';
import { buildPmtilesArchive, referenceHeader } from './testing/pmtiles-fixture.js';

const FIRENZE = path.resolve('../shared/data/pmtiles/firenze.pmtiles');

describe('TileArchives on a real folder', () => {
  let dir: string;
  let archives: TileArchives;
  const ghana = buildPmtilesArchive({ tiles: [{ z: 2, x: 1, y: 1, data: randomBytes(10) }], bounds: { west: -3.26, south: 4.73, east: 1.2, north: 11.17 } });

  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'tile-archives-'));
    archives = new TileArchives(dir);
  });

  it('a missing folder lists nothing and has no archive', async () => {
    const missing = new TileArchives(path.join(dir, 'absent'));
    expect(await missing.list()).toEqual([]);
    await expect(missing.open(ArchiveName.parse('ghana'))).rejects.toBeInstanceOf(ArchiveNotFoundError);
  });

  it('lists servable archives by name with their header, and skips other files', async () => {
    writeFileSync(path.join(dir, 'ghana.pmtiles'), ghana);
    writeFileSync(path.join(dir, 'blob.pmtiles'), randomBytes(500));
    writeFileSync(path.join(dir, '.partial.pmtiles'), ghana);
    writeFileSync(path.join(dir, 'with space.pmtiles'), ghana);
    writeFileSync(path.join(dir, 'readme.txt'), 'x');
    mkdirSync(path.join(dir, 'folder.pmtiles'));
    const listed = await archives.list();
    expect(listed.map((archive) => archive.name)).toEqual(['blob', 'ghana']);
    expect(listed[1]).toMatchObject({ name: 'ghana', size_bytes: ghana.length, pmtiles: referenceHeader(ghana) });
    expect(listed[0].pmtiles).toBeNull();
  });

  it('re-reads a header when the file changed', async () => {
    writeFileSync(path.join(dir, 'ghana.pmtiles'), ghana);
    expect((await archives.list())[0].pmtiles?.max_zoom).toBe(2);
    const replacement = buildPmtilesArchive({ tiles: [{ z: 9, x: 250, y: 240, data: randomBytes(10) }] });
    writeFileSync(path.join(dir, 'next.tmp'), replacement);
    renameSync(path.join(dir, 'next.tmp'), path.join(dir, 'ghana.pmtiles'));
    expect((await archives.list())[0].pmtiles?.max_zoom).toBe(9);
  });

  it('an open archive keeps reading the bytes its ETag names when the file is replaced', async () => {
    const before = randomBytes(64);
    writeFileSync(path.join(dir, 'swap.pmtiles'), before);
    const opened = await archives.open(ArchiveName.parse('swap'));
    try {
      writeFileSync(path.join(dir, 'swap.tmp'), randomBytes(64));
      // Written in the same clock tick (a few ms on Linux), both files could carry the same mtime; a real rebuild never is.
      const later = new Date(Number(opened.lastModifiedMs) + 1);
      utimesSync(path.join(dir, 'swap.tmp'), later, later);
      renameSync(path.join(dir, 'swap.tmp'), path.join(dir, 'swap.pmtiles'));
      const read = Buffer.alloc(64);
      await opened.handle.read(read, 0, 64, 0);
      expect(read.equals(before)).toBe(true);
      const reopened = await archives.open(ArchiveName.parse('swap.pmtiles'));
      await reopened.handle.close();
      expect(reopened.etag).not.toBe(opened.etag);
    } finally {
      await opened.handle.close();
    }
  });

  it('follows a symbolic link the operator put in the folder', async () => {
    const elsewhere = mkdtempSync(path.join(tmpdir(), 'tile-archives-elsewhere-'));
    writeFileSync(path.join(elsewhere, 'big.pmtiles'), ghana);
    symlinkSync(path.join(elsewhere, 'big.pmtiles'), path.join(dir, 'linked.pmtiles'));
    const opened = await archives.open(ArchiveName.parse('linked'));
    await opened.handle.close();
    expect(opened.size).toBe(ghana.length);
  });

  (existsSync(FIRENZE) ? it : it.skip)('reads the header of firenze.pmtiles as the pmtiles package does', async () => {
    const bytes = readFileSync(FIRENZE);
    symlinkSync(FIRENZE, path.join(dir, 'firenze.pmtiles'));
    const [firenze] = await archives.list();
    expect(firenze.pmtiles).toEqual(referenceHeader(bytes));
    expect(firenze.pmtiles).toMatchObject({ spec_version: 3, tile_type: 'mvt' });
  });
});
if (!existsSync(FIRENZE)) console.warn(`skipping the firenze.pmtiles header check: ${FIRENZE} is absent`);
