import { buildPmtilesArchive, referenceHeader } from '../testing/pmtiles-fixture.js';
import { referenceReader } from '../testing/pmtiles-reader.js';
import { readPmtilesHeader } from './pmtiles-header.js';

describe('readPmtilesHeader', () => {
  it('reads a generated archive as the pmtiles package does', () => {
    const archive = buildPmtilesArchive({
      tiles: [
        { z: 3, x: 4, y: 3, data: new Uint8Array([1, 2, 3]) },
        { z: 5, x: 17, y: 11, data: new Uint8Array([4]) },
      ],
      bounds: { west: -3.26, south: 4.73, east: 1.2, north: 11.17 },
      center: { lat: 5.6037, lng: -0.187, zoom: 4 },
    });
    expect(readPmtilesHeader(archive)).toEqual(referenceHeader(archive));
    expect(readPmtilesHeader(archive)).toMatchObject({ min_zoom: 3, max_zoom: 5, tile_type: 'mvt', center: { lat: 5.6037, lng: -0.187, zoom: 4 } });
  });

  it('reads an archive without tiles (zooms 0-0, no tile addressed), as the reference reader does', async () => {
    const archive = buildPmtilesArchive({ tiles: [], metadata: { vector_layers: [] } });
    expect(readPmtilesHeader(archive)).toEqual(referenceHeader(archive));
    expect(readPmtilesHeader(archive)).toMatchObject({ min_zoom: 0, max_zoom: 0, addressed_tiles: 0 });
    const reader = referenceReader(archive);
    expect(await reader.getZxy(0, 0, 0)).toBeUndefined();
    expect(await reader.getMetadata()).toEqual({ vector_layers: [] });
  });

  it('refuses what is not a PMTiles v3 header', () => {
    const archive = buildPmtilesArchive({ tiles: [{ z: 0, x: 0, y: 0, data: new Uint8Array([1]) }] });
    expect(readPmtilesHeader(archive.subarray(0, 126))).toBeUndefined();
    const v2 = Buffer.from(archive);
    v2.writeUInt8(2, 7);
    expect(readPmtilesHeader(v2)).toBeUndefined();
    const other = Buffer.from(archive);
    other.write('MBTiles', 0, 'ascii');
    expect(readPmtilesHeader(other)).toBeUndefined();
  });
});
