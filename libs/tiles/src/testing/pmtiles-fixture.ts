import { bytesToHeader, Compression, TileType, zxyToTileId } from 'pmtiles';
import type { PmtilesHeader } from '../domain/pmtiles-header.js';

export interface FixtureTile {
  z: number;
  x: number;
  y: number;
  data: Uint8Array;
}

export interface FixtureOptions {
  tiles: FixtureTile[];
  metadata?: Record<string, unknown>;
  bounds?: { west: number; south: number; east: number; north: number };
  center?: { lat: number; lng: number; zoom: number };
}

/**
 * A small but valid PMTiles v3 archive (spec/v3/spec.md): header, one root
 * directory, JSON metadata and the tile data, all uncompressed, tile type MVT.
 * Written independently of the reader the tests check it with (the `pmtiles`
 * package), so a test reading it back through the service checks both sides.
 */
export function buildPmtilesArchive(options: FixtureOptions): Buffer {
  const tiles = options.tiles.map((tile) => ({ ...tile, id: zxyToTileId(tile.z, tile.x, tile.y) })).sort((a, b) => a.id - b.id);
  const tileData = Buffer.concat(tiles.map((tile) => tile.data));
  const directory = encodeDirectory(tiles.map((tile) => ({ id: tile.id, length: tile.data.length })));
  const metadata = Buffer.from(JSON.stringify(options.metadata ?? {}), 'utf8');
  const bounds = options.bounds ?? { west: -180, south: -85, east: 180, north: 85 };
  const center = options.center ?? { lat: 0, lng: 0, zoom: 0 };
  const zooms = tiles.map((tile) => tile.z);

  const header = Buffer.alloc(127);
  header.write('PMTiles', 0, 'ascii');
  header.writeUInt8(3, 7);
  const rootOffset = 127;
  const metadataOffset = rootOffset + directory.length;
  const leafOffset = metadataOffset + metadata.length;
  const dataOffset = leafOffset;
  const u64 = (offset: number, value: number) => header.writeBigUInt64LE(BigInt(value), offset);
  u64(8, rootOffset);
  u64(16, directory.length);
  u64(24, metadataOffset);
  u64(32, metadata.length);
  u64(40, leafOffset);
  u64(48, 0);
  u64(56, dataOffset);
  u64(64, tileData.length);
  u64(72, tiles.length);
  u64(80, tiles.length);
  u64(88, tiles.length);
  header.writeUInt8(1, 96); // clustered
  header.writeUInt8(1, 97); // internal compression: none
  header.writeUInt8(1, 98); // tile compression: none
  header.writeUInt8(1, 99); // tile type: MVT
  // An archive without tiles (a region with no data yet) is valid: zooms 0-0, as the writer in ../basemap says.
  header.writeUInt8(zooms.length ? Math.min(...zooms) : 0, 100);
  header.writeUInt8(zooms.length ? Math.max(...zooms) : 0, 101);
  const e7 = (degrees: number) => Math.round(degrees * 1e7);
  header.writeInt32LE(e7(bounds.west), 102);
  header.writeInt32LE(e7(bounds.south), 106);
  header.writeInt32LE(e7(bounds.east), 110);
  header.writeInt32LE(e7(bounds.north), 114);
  header.writeUInt8(center.zoom, 118);
  header.writeInt32LE(e7(center.lng), 119);
  header.writeInt32LE(e7(center.lat), 123);
  return Buffer.concat([header, directory, metadata, tileData]);
}

/** Entries in tile-id order with contiguous data, so every offset after the first is written as 0 ("follows the previous"). */
function encodeDirectory(entries: Array<{ id: number; length: number }>): Buffer {
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
  let last = 0;
  for (const entry of entries) {
    varint(entry.id - last);
    last = entry.id;
  }
  for (const _entry of entries) varint(1);
  for (const entry of entries) varint(entry.length);
  entries.forEach((_entry, index) => varint(index === 0 ? 1 : 0));
  return Buffer.from(bytes);
}

/** What the reference reader, the `pmtiles` package's bytesToHeader, finds in an archive's header, in the listing's shape. */
export function referenceHeader(archive: Uint8Array): PmtilesHeader {
  const reference = bytesToHeader(Uint8Array.from(archive.subarray(0, 127)).buffer);
  return {
    spec_version: reference.specVersion,
    tile_type: TileType[reference.tileType].toLowerCase() as PmtilesHeader['tile_type'],
    tile_compression: Compression[reference.tileCompression].toLowerCase() as PmtilesHeader['tile_compression'],
    min_zoom: reference.minZoom,
    max_zoom: reference.maxZoom,
    bounds: { west: reference.minLon, south: reference.minLat, east: reference.maxLon, north: reference.maxLat },
    center: { lat: reference.centerLat, lng: reference.centerLon, zoom: reference.centerZoom },
    addressed_tiles: reference.numAddressedTiles,
  };
}
