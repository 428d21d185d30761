// vt-pbf 3 ships no types: the one function the basemap build uses.
declare module 'vt-pbf' {
  /** Encodes geojson-vt tiles (one per layer name) as one Mapbox Vector Tile. */
  export function fromGeojsonVt(layers: Record<string, { features: unknown[] }>, options?: { version?: number; extent?: number }): Uint8Array;
  const vtpbf: { fromGeojsonVt: typeof fromGeojsonVt };
  export default vtpbf;
}
