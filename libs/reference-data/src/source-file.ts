import { createReadStream, type ReadStream } from 'node:fs';
import { open, readFile, stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { createGunzip, gunzip } from 'node:zlib';

/**
 * A source file as the importers read it: plain, or gzip-compressed (told by
 * its first two bytes, not its name), decompressed as a stream. Progress counts
 * bytes of the file itself, so it reaches its size either way. The starter
 * pack (docs/adr/0017) ships its datasets gzipped; an operator may import
 * `GH.txt.gz` or `accra.osm.gz` the same way.
 */
export interface SourceFile {
  path: string;
  /** Size of the file on disk. */
  size: number;
  gzip: boolean;
}

const GZIP_MAGIC = [0x1f, 0x8b];

export async function sourceFile(file: string): Promise<SourceFile> {
  const size = (await stat(file)).size;
  const handle = await open(file, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(2), 0, 2, 0);
    return { path: file, size, gzip: bytesRead === 2 && buffer[0] === GZIP_MAGIC[0] && buffer[1] === GZIP_MAGIC[1] };
  } finally {
    await handle.close();
  }
}

/** The decompressed bytes as a stream, and the file stream under it (its `bytesRead` is the progress). */
export function openSource(source: SourceFile, highWaterMark = 1 << 20): { input: Readable; file: ReadStream } {
  const file = createReadStream(source.path, { highWaterMark });
  if (!source.gzip) return { input: file, file };
  const gunzipStream = createGunzip({ chunkSize: 1 << 16 });
  file.on('error', (error) => gunzipStream.destroy(error));
  return { input: file.pipe(gunzipStream), file };
}

/** The whole decompressed content (small files: GeoJSON boundaries). */
export async function readSource(source: SourceFile): Promise<Buffer> {
  const raw = await readFile(source.path);
  return source.gzip ? promisify(gunzip)(raw) : raw;
}

/** The first `length` decompressed bytes (format sniffing). */
export async function headOf(source: SourceFile, length: number): Promise<Buffer> {
  const { input, file } = openSource(source, 1 << 16);
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of input as AsyncIterable<Buffer>) {
      chunks.push(chunk);
      total += chunk.length;
      if (total >= length) break;
    }
  } finally {
    input.destroy();
    file.destroy();
  }
  return Buffer.concat(chunks).subarray(0, length);
}
