import { VectorTile } from '@mapbox/vector-tile';
import { PbfReader } from 'pbf';
import { PMTiles, type Source } from 'pmtiles';
import { gunzipSync } from 'node:zlib';

/**
 * Reads an archive with the reference reader, the `pmtiles` package (what the
 * console's MapLibre uses), from bytes in memory or fetched by range from a URL.
 */
export function referenceReader(bytes: Uint8Array): PMTiles {
  const source: Source = {
    getKey: () => 'memory',
    getBytes: async (offset, length) => ({ data: Uint8Array.from(bytes.subarray(offset, offset + length)).buffer }),
  };
  return new PMTiles(source);
}

/** A Mapbox Vector Tile as the layers' features: geometry type (1 point, 2 line, 3 polygon) and properties. */
export function decodeVectorTile(data: ArrayBuffer | Uint8Array): Record<string, Array<{ type: number; properties: Record<string, unknown> }>> {
  let bytes = data instanceof Uint8Array ? data : new Uint8Array(data);
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) bytes = gunzipSync(bytes);
  const tile = new VectorTile(new PbfReader(bytes));
  const layers: Record<string, Array<{ type: number; properties: Record<string, unknown> }>> = {};
  for (const [name, layer] of Object.entries(tile.layers)) {
    layers[name] = [];
    for (let i = 0; i < layer.length; i++) {
      const feature = layer.feature(i);
      layers[name].push({ type: feature.type, properties: feature.properties });
    }
  }
  return layers;
}
