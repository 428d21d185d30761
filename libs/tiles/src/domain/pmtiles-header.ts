/**
 * The fixed 127-byte header of a PMTiles version 3 archive
 * (https://github.com/protomaps/PMTiles/blob/main/spec/v3/spec.md, "Header"):
 * enough to describe an archive in the listing without reading its directories.
 */
export const PMTILES_HEADER_BYTES = 127;

const MAGIC = 'PMTiles';
const TILE_TYPES = ['unknown', 'mvt', 'png', 'jpeg', 'webp', 'avif', 'mlt'] as const;
const COMPRESSIONS = ['unknown', 'none', 'gzip', 'brotli', 'zstd'] as const;

export interface PmtilesHeader {
  spec_version: number;
  tile_type: (typeof TILE_TYPES)[number];
  tile_compression: (typeof COMPRESSIONS)[number];
  min_zoom: number;
  max_zoom: number;
  bounds: { west: number; south: number; east: number; north: number };
  center: { lat: number; lng: number; zoom: number };
  addressed_tiles: number;
}

/** The header, or undefined when the bytes are not a PMTiles v3 archive (v1/v2 archives start with "PM" and a different layout). */
export function readPmtilesHeader(bytes: Uint8Array): PmtilesHeader | undefined {
  if (bytes.length < PMTILES_HEADER_BYTES) return undefined;
  for (let i = 0; i < MAGIC.length; i++) if (bytes[i] !== MAGIC.charCodeAt(i)) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, PMTILES_HEADER_BYTES);
  const specVersion = view.getUint8(7);
  if (specVersion !== 3) return undefined;
  const degrees = (offset: number) => view.getInt32(offset, true) / 1e7;
  return {
    spec_version: specVersion,
    tile_type: TILE_TYPES[view.getUint8(99)] ?? 'unknown',
    tile_compression: COMPRESSIONS[view.getUint8(98)] ?? 'unknown',
    min_zoom: view.getUint8(100),
    max_zoom: view.getUint8(101),
    bounds: { west: degrees(102), south: degrees(106), east: degrees(110), north: degrees(114) },
    center: { lat: degrees(123), lng: degrees(119), zoom: view.getUint8(118) },
    addressed_tiles: Number(view.getBigUint64(72, true)),
  };
}
