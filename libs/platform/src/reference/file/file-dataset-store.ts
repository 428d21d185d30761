import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { Config } from '../../config/config.js';
import {
  DATASET_NAME,
  DatasetCorruptError,
  type DatasetListing,
  type DatasetManifest,
  type DatasetStore,
  type DatasetVersion,
  type DatasetWriter,
} from '../dataset-store.port.js';

/** Where the reference datasets live under DATA_DIR (docs/adr/0011). */
export function referenceRoot(config: Pick<Config, 'dataDir'>): string {
  return path.join(config.dataDir, 'reference');
}

const VERSION_NAME = /^v\d{8}T\d{9}Z-[0-9a-f]{6}$/;
const STAGING = /^\.staging-(\d+)-[0-9a-f]{6}$/;
const KEEP_VERSIONS = 2;
/** A staging folder this old is abandoned even if its pid now names another process (pids are reused, in containers often). */
const STALE_STAGING_MS = 24 * 3600_000;
const WRITE_BUFFER_BYTES = 1 << 20;

/**
 * The dataset store on disk (docs/adr/0011), versioned and immutable:
 *
 *   <root>/<dataset>/v<time>-<random>/records.ndjson   one JSON record a line
 *   <root>/<dataset>/v<time>-<random>/manifest.json    counts, checksum, source, attribution
 *   <root>/<dataset>/current                           the live version's name
 *
 * An import writes into `.staging-<pid>-<random>/`, fsyncs the records and the
 * manifest, renames the folder to its version name, and only then replaces
 * `current` (write a temp file, fsync, rename, fsync the folder). A crash at
 * any point leaves the previous version live and at worst a staging folder,
 * which the next import removes once its process is gone. The current and the
 * previous version are kept; older ones are deleted after a switch.
 */
export class FileDatasetStore implements DatasetStore {
  constructor(readonly root: string) {}

  async begin(dataset: string): Promise<FileDatasetWriter> {
    if (!DATASET_NAME.test(dataset)) throw new Error(`invalid dataset name "${dataset}"`);
    const directory = path.join(this.root, dataset);
    await mkdir(directory, { recursive: true });
    await this.removeDeadStagings(directory);
    const staging = path.join(directory, `.staging-${process.pid}-${randomBytes(3).toString('hex')}`);
    await mkdir(staging);
    const file = await open(path.join(staging, 'records.ndjson'), 'wx');
    return new FileDatasetWriter(dataset, directory, staging, file);
  }

  async current(dataset: string): Promise<DatasetVersion | null> {
    const directory = path.join(this.root, dataset);
    const version = await readPointer(directory);
    if (!version) return null;
    const manifest = JSON.parse(await readFile(path.join(directory, version, 'manifest.json'), 'utf8')) as DatasetManifest;
    return { dataset, version, directory: path.join(directory, version), manifest };
  }

  async currentVersion(dataset: string): Promise<string | null> {
    return readPointer(path.join(this.root, dataset));
  }

  async liveDatasets(group: string): Promise<string[]> {
    const names = await readdir(path.join(this.root, group)).catch(() => [] as string[]);
    const live: string[] = [];
    for (const name of names.sort()) {
      const dataset = `${group}/${name}`;
      if (DATASET_NAME.test(dataset) && (await this.currentVersion(dataset))) live.push(dataset);
    }
    return live;
  }

  /**
   * Every folder holding versions is a dataset; any other folder is a group
   * whose sub-folders are (a name has at most two segments). No list of
   * datasets is kept: the contexts declare theirs, the store only files them.
   */
  async list(): Promise<DatasetListing[]> {
    const result: DatasetListing[] = [];
    const datasets: string[] = [];
    const entries = async (folder: string) => (await readdir(path.join(this.root, folder), { withFileTypes: true }).catch(() => [])).filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort();
    const holdsVersions = async (dataset: string) => (await entries(dataset)).some((name) => VERSION_NAME.test(name));
    for (const top of await entries('')) {
      if (!DATASET_NAME.test(top)) continue;
      if (await holdsVersions(top)) datasets.push(top);
      else for (const name of await entries(top)) if (DATASET_NAME.test(`${top}/${name}`) && (await holdsVersions(`${top}/${name}`))) datasets.push(`${top}/${name}`);
    }
    for (const dataset of datasets) {
      const directory = path.join(this.root, dataset);
      const current = await readPointer(directory);
      const versions = (await readdir(directory).catch(() => [] as string[])).filter((name) => VERSION_NAME.test(name)).sort();
      for (const version of versions) {
        const manifest = await readFile(path.join(directory, version, 'manifest.json'), 'utf8').then((text) => JSON.parse(text) as DatasetManifest, () => null);
        result.push({ dataset, version, current: version === current, manifest });
      }
    }
    return result;
  }

  async *records<T>(version: DatasetVersion): AsyncGenerator<T> {
    const hash = createHash('sha256');
    const input = createReadStream(path.join(version.directory, 'records.ndjson'));
    input.on('data', (chunk) => hash.update(chunk));
    let count = 0;
    for await (const line of createInterface({ input, crlfDelay: Infinity })) {
      if (line === '') continue;
      count++;
      yield JSON.parse(line) as T;
    }
    const sha256 = hash.digest('hex');
    if (count !== version.manifest.records || sha256 !== version.manifest.sha256) {
      throw new DatasetCorruptError(`${version.dataset} ${version.version}: ${count} records (manifest ${version.manifest.records}), checksum ${sha256 === version.manifest.sha256 ? 'ok' : 'mismatch'}`);
    }
  }

  /** Staging folders of processes that no longer run (a crashed or killed import). */
  private async removeDeadStagings(directory: string): Promise<void> {
    for (const name of await readdir(directory)) {
      const match = STAGING.exec(name);
      if (!match) continue;
      const folder = path.join(directory, name);
      const stale = Date.now() - (await stat(folder)).mtimeMs > STALE_STAGING_MS;
      if (stale || !isRunning(Number(match[1]))) await rm(folder, { recursive: true, force: true });
    }
  }
}

export class FileDatasetWriter implements DatasetWriter {
  private readonly hash = createHash('sha256');
  private buffer: string[] = [];
  private buffered = 0;
  private count = 0;
  private closed = false;

  constructor(
    readonly dataset: string,
    private readonly directory: string,
    readonly staging: string,
    private readonly file: FileHandle,
  ) {}

  get records(): number {
    return this.count;
  }

  /** Buffers one record; `flushIfFull` (or `write`) moves the buffer to the file. */
  add(record: unknown): void {
    const line = `${JSON.stringify(record)}\n`;
    this.buffer.push(line);
    this.buffered += line.length;
    this.count++;
  }

  async write(record: unknown): Promise<void> {
    this.add(record);
    await this.flushIfFull();
  }

  async flushIfFull(): Promise<void> {
    if (this.buffered >= WRITE_BUFFER_BYTES) await this.flush();
  }

  async attach(name: string, content: string): Promise<void> {
    if (!/^[a-z0-9][a-z0-9_.-]*$/i.test(name) || name === 'records.ndjson' || name === 'manifest.json') throw new Error(`invalid attachment name "${name}"`);
    await writeDurably(path.join(this.staging, name), content);
  }

  /** `beforeSwitch` runs between the durable rename of the staging folder and the pointer switch. */
  async commit(details: { sources: string[]; attribution: string[]; stats: Record<string, number> }, beforeSwitch?: () => Promise<void>): Promise<DatasetVersion> {
    await this.flush();
    await this.file.sync();
    await this.file.close();
    this.closed = true;
    const version = `v${new Date().toISOString().replace(/[-:.]/g, '')}-${randomBytes(3).toString('hex')}`;
    const manifest: DatasetManifest = {
      format: 1,
      dataset: this.dataset,
      version,
      records: this.count,
      sha256: this.hash.digest('hex'),
      imported_at: new Date().toISOString(),
      sources: details.sources,
      attribution: details.attribution,
      stats: details.stats,
    };
    await writeDurably(path.join(this.staging, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    await syncDirectory(this.staging);
    const target = path.join(this.directory, version);
    await rename(this.staging, target);
    await syncDirectory(this.directory);
    await beforeSwitch?.();
    const pointerTemp = path.join(this.directory, `.current-${randomBytes(3).toString('hex')}.tmp`);
    await writeDurably(pointerTemp, `${version}\n`);
    await rename(pointerTemp, path.join(this.directory, 'current'));
    await syncDirectory(this.directory);
    await this.prune(version);
    return { dataset: this.dataset, version, directory: target, manifest };
  }

  async abort(): Promise<void> {
    if (!this.closed) await this.file.close().catch(() => undefined);
    this.closed = true;
    await rm(this.staging, { recursive: true, force: true });
  }

  private async flush(): Promise<void> {
    if (this.buffer.length === 0) return;
    const chunk = Buffer.from(this.buffer.join(''), 'utf8');
    this.buffer = [];
    this.buffered = 0;
    this.hash.update(chunk);
    await this.file.write(chunk);
  }

  private async prune(current: string): Promise<void> {
    const versions = (await readdir(this.directory)).filter((name) => VERSION_NAME.test(name)).sort();
    const keep = new Set([current, ...versions.filter((name) => name !== current).slice(-(KEEP_VERSIONS - 1))]);
    for (const name of versions) if (!keep.has(name)) await rm(path.join(this.directory, name), { recursive: true, force: true });
    for (const name of await readdir(this.directory)) {
      if (/^\.current-[0-9a-f]{6}\.tmp$/.test(name)) await rm(path.join(this.directory, name), { force: true });
    }
  }
}

async function readPointer(directory: string): Promise<string | null> {
  try {
    const version = (await readFile(path.join(directory, 'current'), 'utf8')).trim();
    return VERSION_NAME.test(version) ? version : null;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

async function writeDurably(file: string, text: string): Promise<void> {
  const handle = await open(file, 'w');
  try {
    await handle.writeFile(text, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function syncDirectory(directory: string): Promise<void> {
  const handle = await open(directory, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

function isRunning(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
