import { readFileSync } from 'node:fs';
import { inflateRawSync } from 'node:zlib';

/**
 * Just enough of the zip format (APPNOTE 6.3) to read a GTFS feed's tables for
 * the starter manifest's counts: the central directory, then each entry's
 * stored or deflated data. No zip64, no encryption, no multi-disk archives.
 */
export class ZipFormatError extends Error {}

const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const CENTRAL_FILE_HEADER = 0x02014b50;
const LOCAL_FILE_HEADER = 0x04034b50;

export function readZipEntries(file: string): Map<string, Buffer> {
  const zip = readFileSync(file);
  let end = -1;
  // The end record is the last 22 bytes plus a comment of up to 65,535 bytes.
  for (let at = zip.length - 22; at >= Math.max(0, zip.length - 22 - 0xffff); at--) {
    if (zip.readUInt32LE(at) === END_OF_CENTRAL_DIRECTORY) {
      end = at;
      break;
    }
  }
  if (end < 0) throw new ZipFormatError(`${file} is not a zip archive`);
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const entries = new Map<string, Buffer>();
  for (let i = 0; i < count; i++) {
    if (zip.readUInt32LE(at) !== CENTRAL_FILE_HEADER) throw new ZipFormatError(`${file}: broken central directory`);
    const method = zip.readUInt16LE(at + 10);
    const compressedSize = zip.readUInt32LE(at + 20);
    const size = zip.readUInt32LE(at + 24);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    at += 46 + nameLength + extraLength + commentLength;
    if (compressedSize === 0xffffffff || local === 0xffffffff) throw new ZipFormatError(`${file}: zip64 entries are not read`);
    if (zip.readUInt32LE(local) !== LOCAL_FILE_HEADER) throw new ZipFormatError(`${file}: broken entry ${name}`);
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const raw = zip.subarray(start, start + compressedSize);
    let data: Buffer;
    if (method === 0) data = Buffer.from(raw);
    else if (method === 8) data = inflateRawSync(raw);
    else throw new ZipFormatError(`${file}: entry ${name} uses compression method ${method}; only stored and deflated are read`);
    if (data.length !== size) throw new ZipFormatError(`${file}: entry ${name} is ${data.length} bytes, its header says ${size}`);
    entries.set(name, data);
  }
  return entries;
}
