import { gzipSync } from 'node:zlib';
import type { Feature, FeatureCollection } from 'geojson';
import GeoJSONVT from 'geojson-vt';
import vtpbf from 'vt-pbf';
import { writePmtiles, type ArchiveTile } from '../basemap/pmtiles-writer.js';

/**
 * A vector basemap archive from GeoJSON layers (docs/adr/0027): geojson-vt
 * (MapLibre's slicer: clipping, simplification per zoom) cuts each layer into
 * tiles, vt-pbf encodes them as Mapbox Vector Tiles, each gzipped, and
 * `writePmtiles` writes the PMTiles v3 archive.
 *
 * Which tiles exist: a layer "leads" up to `leadsTo` (its zoom range in its own
 * right): every tile covering its bounding box at those zooms that holds some
 * of its features is written. Past that zoom a layer still rides along in
 * the tiles other layers lead (country boundaries under the city's roads at
 * street zooms), so the deep zooms cost only where the detailed data is.
 */

export interface VectorLayer {
  /** The MVT layer name (`source-layer` in a MapLibre style). */
  name: string;
  features: Feature[];
  /** The zoom up to which this layer makes tiles of its own (at most the archive's max zoom). */
  leadsTo: number;
  /** For vector_layers in the metadata: field name → description. */
  fields: Record<string, string>;
  description?: string;
  /**
   * The least zoom each feature is in (tippecanoe's `minzoom`): towns from
   * zoom 6, villages from 9, so the low-zoom tiles of a whole country stay
   * small. Absent: every feature from the archive's min zoom.
   */
  minZoomOf?: (feature: Feature) => number;
}

export interface VectorArchiveOptions {
  layers: VectorLayer[];
  minZoom: number;
  maxZoom: number;
  /** Metadata beyond vector_layers: name, attribution, ... */
  metadata: Record<string, unknown>;
  /** Where a map opens; the middle of the data at the min zoom by default. */
  center?: { lat: number; lng: number; zoom: number };
  /** Called after each zoom level: tiles written so far. */
  onProgress?: (zoom: number, tiles: number) => void;
}

export interface VectorArchive {
  archive: Buffer;
  tiles: number;
  bounds: { west: number; south: number; east: number; north: number };
}

export function buildVectorArchive(options: VectorArchiveOptions): VectorArchive {
  const { layers, minZoom, maxZoom } = options;
  const sliced = layers.map((layer) => ({
    layer,
    bbox: bboxOf(layer.features),
    // One slicer per feature min zoom (a handful): a tile of zoom z holds the features of the groups from z or less.
    groups: [...groupByMinZoom(layer).entries()].map(([from, features]) => ({
      from,
      index: new GeoJSONVT({ type: 'FeatureCollection', features } satisfies FeatureCollection, { maxZoom, indexMaxZoom: Math.min(maxZoom, 5), tolerance: 3, buffer: 64 }),
    })),
  }));
  const all = sliced.map((entry) => entry.bbox).filter((bbox): bbox is Bbox => bbox !== null);
  const bounds = all.length
    ? { west: Math.min(...all.map((b) => b.west)), south: Math.min(...all.map((b) => b.south)), east: Math.max(...all.map((b) => b.east)), north: Math.max(...all.map((b) => b.north)) }
    : { west: -180, south: -85, east: 180, north: 85 };
  const tiles: ArchiveTile[] = [];
  for (let z = minZoom; z <= maxZoom; z++) {
    const candidates = new Map<string, [number, number]>();
    for (const { layer, bbox } of sliced) {
      if (!bbox || layer.leadsTo < z) continue;
      const [x0, y0] = tileOf(bbox.west, bbox.north, z);
      const [x1, y1] = tileOf(bbox.east, bbox.south, z);
      for (let x = x0; x <= x1; x++) for (let y = y0; y <= y1; y++) candidates.set(`${x}/${y}`, [x, y]);
    }
    for (const [x, y] of candidates.values()) {
      const parts: Record<string, { features: unknown[] }> = {};
      let led = false;
      for (const { layer, groups } of sliced) {
        const features = groups.filter((group) => group.from <= z).flatMap((group) => group.index.getTile(z, x, y)?.features ?? []);
        if (features.length === 0) continue;
        parts[layer.name] = { features };
        if (layer.leadsTo >= z) led = true;
      }
      if (!led) continue;
      tiles.push({ z, x, y, data: gzipSync(vtpbf.fromGeojsonVt(parts, { version: 2, extent: 4096 })) });
    }
    options.onProgress?.(z, tiles.length);
  }
  const center = options.center ?? { lat: (bounds.south + bounds.north) / 2, lng: (bounds.west + bounds.east) / 2, zoom: minZoom };
  const metadata = {
    ...options.metadata,
    format: 'pbf',
    minzoom: minZoom,
    maxzoom: maxZoom,
    bounds: [bounds.west, bounds.south, bounds.east, bounds.north],
    // maxzoom: the zoom through which the layer is whole (it leads its tiles); a client overzooms from there.
    vector_layers: layers.map((layer) => ({ id: layer.name, description: layer.description ?? '', minzoom: minZoom, maxzoom: Math.min(layer.leadsTo, maxZoom), fields: layer.fields })),
  };
  const archive = writePmtiles(tiles, { tileType: 'mvt', tileCompression: 'gzip', bounds, center, metadata, minZoom, maxZoom });
  return { archive, tiles: tiles.length, bounds };
}

function groupByMinZoom(layer: VectorLayer): Map<number, Feature[]> {
  const groups = new Map<number, Feature[]>();
  for (const feature of layer.features) {
    const from = layer.minZoomOf?.(feature) ?? 0;
    const group = groups.get(from);
    if (group) group.push(feature);
    else groups.set(from, [feature]);
  }
  return groups;
}

interface Bbox {
  west: number;
  south: number;
  east: number;
  north: number;
}

function bboxOf(features: Feature[]): Bbox | null {
  const box = { west: Infinity, south: Infinity, east: -Infinity, north: -Infinity };
  const visit = (coords: unknown): void => {
    if (typeof (coords as number[])[0] === 'number') {
      const [lng, lat] = coords as number[];
      box.west = Math.min(box.west, lng);
      box.east = Math.max(box.east, lng);
      box.south = Math.min(box.south, lat);
      box.north = Math.max(box.north, lat);
    } else for (const inner of coords as unknown[]) visit(inner);
  };
  for (const feature of features) if (feature.geometry && 'coordinates' in feature.geometry) visit(feature.geometry.coordinates);
  return box.west <= box.east ? box : null;
}

/** The tile holding a point at zoom z (Web Mercator, XYZ). */
export function tileOf(lng: number, lat: number, z: number): [number, number] {
  const n = 2 ** z;
  const clampedLat = Math.max(-85.0511, Math.min(85.0511, lat));
  const x = Math.floor(((lng + 180) / 360) * n);
  const rad = (clampedLat * Math.PI) / 180;
  const y = Math.floor(((1 - Math.log(Math.tan(rad) + 1 / Math.cos(rad)) / Math.PI) / 2) * n);
  return [Math.min(n - 1, Math.max(0, x)), Math.min(n - 1, Math.max(0, y))];
}
