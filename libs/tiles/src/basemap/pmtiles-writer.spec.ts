import { referenceReader } from '../testing/pmtiles-reader.js';
import { writePmtiles, type ArchiveDescription, type ArchiveTile } from './pmtiles-writer.js';

const description: ArchiveDescription = {
  tileType: 'mvt',
  tileCompression: 'none',
  bounds: { west: -3.3, south: 4.7, east: 1.2, north: 11.2 },
  center: { lat: 5.6, lng: -0.2, zoom: 12 },
  metadata: { name: 'test', vector_layers: [] },
};
const bytes = (text: string) => new Uint8Array(Buffer.from(text));
const text = (data: ArrayBuffer | undefined) => (data ? Buffer.from(data).toString() : undefined);

describe('the PMTiles v3 writer, read back with the pmtiles package', () => {
  it('writes tiles in any order, each found at its z/x/y, with the header and metadata', async () => {
    const tiles: ArchiveTile[] = [
      { z: 3, x: 4, y: 3, data: bytes('c') },
      { z: 0, x: 0, y: 0, data: bytes('a') },
      { z: 1, x: 1, y: 0, data: bytes('b') },
    ];
    const reader = referenceReader(writePmtiles(tiles, description));
    expect(await reader.getHeader()).toMatchObject({ specVersion: 3, minZoom: 0, maxZoom: 3, numAddressedTiles: 3, centerZoom: 12, clustered: true });
    expect(await reader.getMetadata()).toEqual({ name: 'test', vector_layers: [] });
    expect(text((await reader.getZxy(0, 0, 0))?.data)).toBe('a');
    expect(text((await reader.getZxy(1, 1, 0))?.data)).toBe('b');
    expect(text((await reader.getZxy(3, 4, 3))?.data)).toBe('c');
    expect(await reader.getZxy(1, 0, 0)).toBeUndefined();
  });

  it('an archive without tiles is valid and answers no tile (zooms 0-0 unless given)', async () => {
    const reader = referenceReader(writePmtiles([], description));
    expect(await reader.getHeader()).toMatchObject({ specVersion: 3, minZoom: 0, maxZoom: 0, numAddressedTiles: 0, numTileContents: 0 });
    expect(await reader.getZxy(0, 0, 0)).toBeUndefined();
  });

  it('stores identical tiles once, a run of them as one entry', async () => {
    const same = Array.from({ length: 4 }, (_, i) => ({ z: 1, x: i % 2, y: Math.floor(i / 2), data: bytes('sea') }));
    const archive = writePmtiles([...same, { z: 0, x: 0, y: 0, data: bytes('sea') }], description);
    const header = await referenceReader(archive).getHeader();
    expect(header).toMatchObject({ numAddressedTiles: 5, numTileEntries: 1, numTileContents: 1, tileDataLength: 3 });
    expect(text((await referenceReader(archive).getZxy(1, 1, 1))?.data)).toBe('sea');
  });

  it('moves entries to leaf directories when the root would pass the first 16 KiB', async () => {
    const tiles: ArchiveTile[] = [];
    // Lengths that vary, so the gzipped directory does not shrink to nothing.
    for (let x = 0; x < 256; x++) for (let y = 0; y < 256; y += 1 + ((x * 7 + y) % 3)) tiles.push({ z: 8, x, y, data: bytes(`${x},${y}`.padEnd(10 + ((x * 31 + y * 17) % 200), '.')) });
    const archive = writePmtiles(tiles, description);
    const reader = referenceReader(archive);
    const header = await reader.getHeader();
    expect(header.leafDirectoryLength).toBeGreaterThan(0);
    expect(header.rootDirectoryOffset + header.rootDirectoryLength).toBeLessThanOrEqual(16_384);
    for (const { x, y, data } of [tiles[0], tiles[1234], tiles.at(-1)!]) expect(text((await reader.getZxy(8, x, y))?.data)).toBe(Buffer.from(data).toString());
  });

  it('refuses the same tile twice', () => {
    expect(() => writePmtiles([{ z: 0, x: 0, y: 0, data: bytes('a') }, { z: 0, x: 0, y: 0, data: bytes('b') }], description)).toThrow('0/0/0 given twice');
  });
});
