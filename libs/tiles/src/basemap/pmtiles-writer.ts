import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { zxyToTileId } from 'pmtiles';

/**
 * A PMTiles version 3 archive writer
 * (https://github.com/protomaps/PMTiles/blob/main/spec/v3/spec.md), for
 * archives built in memory (a starter region: hundreds to a few thousand
 * tiles). The `pmtiles` npm package only reads; no maintained npm package
 * writes v3 (docs/adr/0027). Layout: header, root directory, metadata, leaf
 * directories, tile data; directories and metadata gzipped; tiles stored as
 * given (the caller says how they are compressed); identical tiles stored once
 * and runs of them addressed by one entry (`run_length`); tiles in tile-id
 * order, so the archive is clustered.
 */

export interface ArchiveTile {
  z: number;
  x: number;
  y: number;
  data: Uint8Array;
}

export interface ArchiveDescription {
  tileType: 'mvt';
  /** How each tile's bytes are compressed (as given to the writer). */
  tileCompression: 'none' | 'gzip';
  bounds: { west: number; south: number; east: number; north: number };
  center: { lat: number; lng: number; zoom: number };
  /** Written as the archive's JSON metadata (vector_layers, attribution, ...). */
  metadata: Record<string, unknown>;
  /** The archive's zoom range; defaults to the tiles' own, or 0-0 for an archive without tiles. */
  minZoom?: number;
  maxZoom?: number;
}

interface Entry {
  tileId: number;
  offset: number;
  length: number;
  /** 0: the entry points at a leaf directory. */
  runLength: number;
}

const HEADER_BYTES = 127;
/** The spec: header and root directory within the first 16 KiB, so one request reads both. */
const ROOT_BUDGET = 16_384 - HEADER_BYTES;
const COMPRESSION = { none: 1, gzip: 2 } as const;
const TILE_TYPE = { mvt: 1 } as const;

export function writePmtiles(tiles: readonly ArchiveTile[], description: ArchiveDescription): Buffer {
  const sorted = tiles.map((tile) => ({ id: zxyToTileId(tile.z, tile.x, tile.y), tile })).sort((a, b) => a.id - b.id);
  const entries: Entry[] = [];
  const contents: Uint8Array[] = [];
  const offsets = new Map<string, { offset: number; length: number }>();
  let dataLength = 0;
  for (const [index, { id, tile }] of sorted.entries()) {
    if (index > 0 && sorted[index - 1].id === id) throw new Error(`tile ${tile.z}/${tile.x}/${tile.y} given twice`);
    const hash = createHash('sha256').update(tile.data).digest('hex');
    let stored = offsets.get(hash);
    if (!stored) {
      stored = { offset: dataLength, length: tile.data.length };
      offsets.set(hash, stored);
      contents.push(tile.data);
      dataLength += tile.data.length;
    }
    const last = entries.at(-1);
    if (last && last.offset === stored.offset && last.tileId + last.runLength === id) last.runLength++;
    else entries.push({ tileId: id, offset: stored.offset, length: stored.length, runLength: 1 });
  }

  const { root, leaves } = directories(entries);
  const metadata = gzipSync(Buffer.from(JSON.stringify(description.metadata), 'utf8'));
  const zooms = tiles.map((tile) => tile.z);
  const header = Buffer.alloc(HEADER_BYTES);
  header.write('PMTiles', 0, 'ascii');
  header.writeUInt8(3, 7);
  const u64 = (at: number, value: number) => header.writeBigUInt64LE(BigInt(value), at);
  const rootOffset = HEADER_BYTES;
  const metadataOffset = rootOffset + root.length;
  const leavesOffset = metadataOffset + metadata.length;
  const dataOffset = leavesOffset + leaves.length;
  u64(8, rootOffset);
  u64(16, root.length);
  u64(24, metadataOffset);
  u64(32, metadata.length);
  u64(40, leavesOffset);
  u64(48, leaves.length);
  u64(56, dataOffset);
  u64(64, dataLength);
  u64(72, sorted.length);
  u64(80, entries.length);
  u64(88, contents.length);
  header.writeUInt8(1, 96);
  header.writeUInt8(COMPRESSION.gzip, 97);
  header.writeUInt8(COMPRESSION[description.tileCompression], 98);
  header.writeUInt8(TILE_TYPE[description.tileType], 99);
  header.writeUInt8(description.minZoom ?? (zooms.length ? Math.min(...zooms) : 0), 100);
  header.writeUInt8(description.maxZoom ?? (zooms.length ? Math.max(...zooms) : 0), 101);
  const e7 = (degrees: number) => Math.round(degrees * 1e7);
  const { bounds, center } = description;
  header.writeInt32LE(e7(bounds.west), 102);
  header.writeInt32LE(e7(bounds.south), 106);
  header.writeInt32LE(e7(bounds.east), 110);
  header.writeInt32LE(e7(bounds.north), 114);
  header.writeUInt8(center.zoom, 118);
  header.writeInt32LE(e7(center.lng), 119);
  header.writeInt32LE(e7(center.lat), 123);
  return Buffer.concat([header, root, metadata, leaves, ...contents]);
}

/**
 * One root directory when it fits the first 16 KiB; otherwise leaf
 * directories of `leafSize` entries, the root pointing at each, with the leaf
 * size doubled until the root fits (the reference writer's approach).
 */
function directories(entries: Entry[]): { root: Buffer; leaves: Buffer } {
  const single = encodeDirectory(entries);
  if (single.length <= ROOT_BUDGET) return { root: single, leaves: Buffer.alloc(0) };
  for (let leafSize = 4096; ; leafSize *= 2) {
    const leafBytes: Buffer[] = [];
    const rootEntries: Entry[] = [];
    let offset = 0;
    for (let at = 0; at < entries.length; at += leafSize) {
      const leaf = encodeDirectory(entries.slice(at, at + leafSize));
      rootEntries.push({ tileId: entries[at].tileId, offset, length: leaf.length, runLength: 0 });
      leafBytes.push(leaf);
      offset += leaf.length;
    }
    const root = encodeDirectory(rootEntries);
    if (root.length <= ROOT_BUDGET) return { root, leaves: Buffer.concat(leafBytes) };
  }
}

/** The spec's columns: count, tile-id deltas, run lengths, lengths, offsets (0: "right after the previous entry", else offset + 1); gzipped. */
function encodeDirectory(entries: Entry[]): Buffer {
  const bytes: number[] = [];
  const varint = (value: number) => {
    let rest = value;
    while (rest >= 0x80) {
      bytes.push((rest % 0x80) | 0x80);
      rest = Math.floor(rest / 0x80);
    }
    bytes.push(rest);
  };
  varint(entries.length);
  let lastId = 0;
  for (const entry of entries) {
    varint(entry.tileId - lastId);
    lastId = entry.tileId;
  }
  for (const entry of entries) varint(entry.runLength);
  for (const entry of entries) varint(entry.length);
  entries.forEach((entry, index) => {
    const previous = entries[index - 1];
    varint(previous && entry.offset === previous.offset + previous.length ? 0 : entry.offset + 1);
  });
  return gzipSync(Buffer.from(bytes));
}
