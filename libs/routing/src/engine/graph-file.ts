import { open, readFile, rename } from 'node:fs/promises';
import type { ContractionHierarchy } from './contraction.js';
import { RoadGraph, type WayInfo } from './road-graph.js';
import type { SpatialIndexData } from './spatial-index.js';
import type { LandmarkData } from './search.js';

/**
 * The prepared graph on disk (`DATA_DIR/routing/<dataset version>/graph.bin`):
 * a JSON header (way attributes, array directory) then the typed arrays,
 * 8-byte aligned, read back as views of one buffer without parsing. Written
 * to a temporary name, fsynced and renamed, so a crash leaves no half file.
 */
export const GRAPH_FILE_FORMAT = 6;
const MAGIC = 'LAPIRG06';

type Typed = Int32Array | Float64Array | Uint8Array | Float32Array;
const TYPES = { Int32Array, Float64Array, Uint8Array, Float32Array } as const;
type TypeName = keyof typeof TYPES;

export interface PreparedGraph {
  graph: RoadGraph;
  /** One hierarchy per mode, in MODES order. */
  hierarchies: ContractionHierarchy[];
  /** The snapping index, built with the graph so loading a country does not hold the event loop. */
  index: SpatialIndexData;
  /** ALT landmarks per mode (MODES order), for the A* fallback. */
  landmarks: LandmarkData[];
  meta: { dataset_version: string; prepared_at: string; prepare_ms: number; stats: Record<string, number> };
}

const GRAPH_ARRAYS = ['nodeLat', 'nodeLng', 'nodeFlags', 'edgeFrom', 'edgeTo', 'edgeWay', 'edgeLength', 'edgeFlags', 'geomOffset', 'geomLat', 'geomLng', 'turnTriples', 'turnModes', 'incidentOffset', 'incidentEdges', 'viaWayOffset', 'viaWayEdges', 'viaWayModes'] as const;
const LANDMARK_ARRAYS = ['nodes', 'fromLandmark', 'toLandmark'] as const;
const INDEX_ARRAYS = ['cellKeys', 'cellOffset', 'segments', 'segmentEdge', 'pointOffsetM'] as const;
const CH_ARRAYS = ['rank', 'arcEdge', 'arcDir', 'arcChildA', 'arcChildB', 'upOffset', 'upHead', 'upWeight', 'upArc', 'downOffset', 'downHead', 'downWeight', 'downArc'] as const;

export async function writeGraphFile(file: string, prepared: PreparedGraph): Promise<void> {
  const arrays: Array<[string, Typed]> = [];
  for (const name of GRAPH_ARRAYS) arrays.push([name, prepared.graph[name]]);
  prepared.graph.weights.forEach((weights, m) => arrays.push([`weights.${m}`, weights]));
  for (const name of INDEX_ARRAYS) arrays.push([`index.${name}`, prepared.index[name]]);
  prepared.landmarks.forEach((landmarks, m) => {
    for (const name of LANDMARK_ARRAYS) arrays.push([`alt.${m}.${name}`, landmarks[name]]);
  });
  prepared.hierarchies.forEach((ch, m) => {
    for (const name of CH_ARRAYS) arrays.push([`ch.${m}.${name}`, ch[name]]);
  });
  let offset = 0;
  const directory = arrays.map(([name, array]) => {
    const entry = { name, type: array.constructor.name as TypeName, offset, length: array.length };
    offset += Math.ceil(array.byteLength / 8) * 8;
    return entry;
  });
  const header = Buffer.from(JSON.stringify({ format: GRAPH_FILE_FORMAT, meta: prepared.meta, ways: prepared.graph.ways, modes: prepared.hierarchies.length, directory }), 'utf8');
  const headerLength = Math.ceil((16 + header.length) / 8) * 8;
  const prefix = Buffer.alloc(headerLength);
  prefix.write(MAGIC, 0, 'latin1');
  prefix.writeUInt32LE(header.length, 8);
  header.copy(prefix, 16);
  const temp = `${file}.${process.pid}.tmp`;
  const handle = await open(temp, 'w');
  try {
    await handle.write(prefix);
    for (const [, array] of arrays) {
      const bytes = Buffer.from(array.buffer, array.byteOffset, array.byteLength);
      await handle.write(bytes);
      const pad = Math.ceil(array.byteLength / 8) * 8 - array.byteLength;
      if (pad > 0) await handle.write(Buffer.alloc(pad));
    }
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temp, file);
}

export class GraphFileError extends Error {}

export async function readGraphFile(file: string): Promise<PreparedGraph> {
  const data = await readFile(file);
  if (data.length < 16 || data.toString('latin1', 0, 8) !== MAGIC) throw new GraphFileError(`${file} is not a prepared road graph (format ${GRAPH_FILE_FORMAT})`);
  const headerBytes = data.readUInt32LE(8);
  let parsed: unknown;
  try {
    parsed = JSON.parse(data.toString('utf8', 16, 16 + headerBytes));
  } catch {
    throw new GraphFileError(`${file}: unreadable header (truncated file?)`);
  }
  const header = parsed as {
    format: number;
    meta: PreparedGraph['meta'];
    ways: WayInfo[];
    modes: number;
    directory: Array<{ name: string; type: TypeName; offset: number; length: number }>;
  };
  if (header.format !== GRAPH_FILE_FORMAT) throw new GraphFileError(`${file}: format ${header.format}, expected ${GRAPH_FILE_FORMAT}`);
  const base = Math.ceil((16 + headerBytes) / 8) * 8;
  // One aligned copy: Buffer pools may hand out unaligned memory, typed array views need alignment.
  const body = new ArrayBuffer(data.length - base);
  new Uint8Array(body).set(data.subarray(base));
  const arrays = new Map<string, Typed>();
  for (const entry of header.directory) {
    const Type = TYPES[entry.type];
    if (!Type || entry.offset + entry.length * Type.BYTES_PER_ELEMENT > body.byteLength) throw new GraphFileError(`${file}: array ${entry.name} out of bounds (truncated file?)`);
    arrays.set(entry.name, new Type(body, entry.offset, entry.length));
  }
  const get = <T extends Typed>(name: string) => {
    const array = arrays.get(name);
    if (!array) throw new GraphFileError(`${file}: array ${name} missing`);
    return array as T;
  };
  const weights = Array.from({ length: header.modes }, (_, m) => get<Int32Array>(`weights.${m}`));
  const graph = new RoadGraph(
    get('nodeLat'), get('nodeLng'), get('nodeFlags'), get('edgeFrom'), get('edgeTo'), get('edgeWay'), get('edgeLength'), get('edgeFlags'),
    get('geomOffset'), get('geomLat'), get('geomLng'), weights, get('turnTriples'), get('turnModes'), header.ways, get('incidentOffset'), get('incidentEdges'),
    get('viaWayOffset'), get('viaWayEdges'), get('viaWayModes'),
  );
  const hierarchies = Array.from({ length: header.modes }, (_, m) => {
    const arraysOf = Object.fromEntries(CH_ARRAYS.map((name) => [name, get(`ch.${m}.${name}`)]));
    return { nodeCount: graph.nodeCount, ...arraysOf } as ContractionHierarchy;
  });
  const index = Object.fromEntries(INDEX_ARRAYS.map((name) => [name, get(`index.${name}`)])) as SpatialIndexData;
  const landmarks = Array.from({ length: header.modes }, (_, m) => Object.fromEntries(LANDMARK_ARRAYS.map((name) => [name, get(`alt.${m}.${name}`)])) as LandmarkData);
  return { graph, hierarchies, index, landmarks, meta: header.meta };
}
