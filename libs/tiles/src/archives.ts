import { open, readdir, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { ArchiveName } from './domain/archive-name.js';
import { ArchiveNotFoundError } from './domain/errors.js';
import { PMTILES_HEADER_BYTES, readPmtilesHeader, type PmtilesHeader } from './domain/pmtiles-header.js';
import type { Validators } from './domain/preconditions.js';

/** An archive opened for one request: the validators describe exactly the bytes `handle` reads. */
export interface OpenArchive extends Validators {
  name: string;
  size: number;
  handle: FileHandle;
}

export interface ArchiveSummary {
  name: string;
  size_bytes: number;
  etag: string;
  last_modified: string;
  /** The PMTiles v3 header, or null when the file is not a PMTiles v3 archive. */
  pmtiles: PmtilesHeader | null;
}

const NOT_THERE = new Set(['ENOENT', 'ENOTDIR', 'EISDIR', 'ELOOP']);

/**
 * The PMTiles archives of the tiles folder (TILES_DIR). Each request opens the
 * file and takes its validators from that open handle, so a file replaced on
 * disk mid-request still serves the bytes its ETag names: a rename leaves the
 * old inode readable through the handle, and the next request sees the new
 * file with its new ETag.
 */
export class TileArchives {
  private readonly headers = new Map<string, { etag: string; header: PmtilesHeader | null }>();

  constructor(readonly dir: string) {}

  async open(name: ArchiveName): Promise<OpenArchive> {
    let handle: FileHandle;
    try {
      handle = await open(path.join(this.dir, name.fileName), 'r');
    } catch (error) {
      if (NOT_THERE.has((error as NodeJS.ErrnoException).code ?? '')) throw new ArchiveNotFoundError(name.value);
      throw error;
    }
    try {
      const stats = await handle.stat({ bigint: true });
      if (!stats.isFile()) throw new ArchiveNotFoundError(name.value);
      return { name: name.value, size: Number(stats.size), etag: archiveEtag(stats.size, stats.mtimeNs), lastModifiedMs: Number(stats.mtimeMs), handle };
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  /** Every servable archive, sorted by name; a missing folder is an empty list. */
  async list(): Promise<ArchiveSummary[]> {
    let entries: string[];
    try {
      entries = await readdir(this.dir);
    } catch (error) {
      if (NOT_THERE.has((error as NodeJS.ErrnoException).code ?? '')) return [];
      throw error;
    }
    const names = entries
      .map((entry) => ArchiveName.fromFileName(entry))
      .filter((name): name is ArchiveName => name !== undefined)
      .sort((a, b) => (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
    const summaries: ArchiveSummary[] = [];
    for (const name of names) {
      const summary = await this.summarise(name);
      if (summary) summaries.push(summary);
    }
    for (const cached of this.headers.keys()) if (!names.some((name) => name.value === cached)) this.headers.delete(cached);
    return summaries;
  }

  /** Reads the 127-byte header only when the file changed since the last listing. */
  private async summarise(name: ArchiveName): Promise<ArchiveSummary | undefined> {
    let archive: OpenArchive;
    try {
      archive = await this.open(name);
    } catch (error) {
      // Removed between readdir and open, or not a regular file: not an archive to list.
      if (error instanceof ArchiveNotFoundError) return undefined;
      throw error;
    }
    try {
      let cached = this.headers.get(name.value);
      if (cached?.etag !== archive.etag) {
        const bytes = new Uint8Array(PMTILES_HEADER_BYTES);
        const { bytesRead } = await archive.handle.read(bytes, 0, PMTILES_HEADER_BYTES, 0);
        cached = { etag: archive.etag, header: readPmtilesHeader(bytes.subarray(0, bytesRead)) ?? null };
        this.headers.set(name.value, cached);
      }
      return {
        name: name.value,
        size_bytes: archive.size,
        etag: archive.etag,
        last_modified: new Date(archive.lastModifiedMs).toISOString(),
        pmtiles: cached.header,
      };
    } finally {
      await archive.handle.close();
    }
  }
}

/**
 * A strong validator from the file's size and modification time in nanoseconds
 * (like nginx's, finer). Not the inode: several api instances serving their own
 * copy of an archive must agree on its ETag, or the PMTiles client, which
 * compares ETags across requests, would take the archive for a changed one.
 * Copies must therefore keep the mtime (`cp -p`, `rsync -t`). The file
 * system stamps mtimes at its clock tick (a few ms), so two builds of the same
 * size written within one tick would share an ETag; a rebuilt archive never is.
 */
export function archiveEtag(size: bigint, mtimeNs: bigint): string {
  return `"${size.toString(16)}-${mtimeNs.toString(16)}"`;
}
