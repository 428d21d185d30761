import { stat } from 'node:fs/promises';
import path from 'node:path';
import { DatasetImportError, type DatasetImportOptions, type DatasetImportResult, type DatasetStore } from '../../../platform/src/index.js';
import { OSM_ATTRIBUTION, readOsm, type OsmMember } from '../../../reference-data/src/index.js';
import { isRoutableHighway } from '../domain/profiles.js';
import {
  pickTags,
  ROAD_NODE_TAG_KEYS,
  ROAD_TAG_KEYS,
  roadNodeOfInterest,
  type RoadNodeRecord,
  type RoadWayRecord,
  type TurnRestrictionRecord,
} from '../domain/road-records.js';

/** The detailed road network (docs/adr/0018; the starter's Accra streets): a new import replaces it as a whole. */
export const ROAD_DATASET = 'roads';
/** The national backbone (docs/adr/0035): intercity roads, clipped where a detailed dataset has coverage. */
export const BACKBONE_DATASET = 'roads-backbone';
/** More detailed extracts an operator imports side by side (`road-extracts/kumasi`): layered like `roads`. */
export const EXTRACT_GROUP = 'road-extracts';

/** The World Bank's attribution format for the AICD road layer (shared/data/ghana-roads/README.md), noting the conversion. */
export const AICD_ATTRIBUTION = 'The World Bank: Ghana Roads (AICD, 2009): Ghana Highway Authority / Tecsult International, CC BY 4.0 (converted and modified)';

/** What a road file's ways say about their origin: the AICD layer tags `source`; anything else is taken as OpenStreetMap. */
function attributionOf(sources: ReadonlySet<string>): string[] {
  const attribution: string[] = [];
  if ([...sources].some((source) => /AICD|World Bank/i.test(source))) attribution.push(AICD_ATTRIBUTION);
  if ([...sources].some((source) => !/AICD|World Bank/i.test(source))) attribution.push(OSM_ATTRIBUTION);
  return attribution;
}

/**
 * `npm run ops -- import:roads FILE` (.osm XML, gzipped XML or .osm.pbf, read
 * by the shared OSM readers of libs/reference-data): the routable `highway` ways with
 * the tags routing needs, their node positions, the fords, flood-prone nodes
 * and signals on them, and `type=restriction` relations, written as a new
 * version of the `roads` dataset and switched in atomically. Ways come before
 * their nodes' positions are known in neither format's order guarantee that
 * helps (nodes precede ways), so positions take a second pass that reads only
 * nodes and stops once every needed one is found.
 */
export async function importRoads(store: DatasetStore, file: string, options: DatasetImportOptions = {}, target: string = ROAD_DATASET): Promise<DatasetImportResult> {
  if (options.dataset !== undefined) throw new DatasetImportError(`the ${target} dataset is one dataset: --dataset does not apply`);
  return importRoadLayer(store, file, target, options);
}

/** `import:road-extract FILE --dataset road-extracts/NAME`: a detailed extract beside `roads` (docs/adr/0035). */
export async function importRoadExtract(store: DatasetStore, file: string, options: DatasetImportOptions = {}): Promise<DatasetImportResult> {
  const dataset = options.dataset ?? `${EXTRACT_GROUP}/${path.basename(file).replace(/\.(osm\.pbf|osm\.gz|osm|pbf|xml\.gz|xml)$/i, '').toLowerCase().replace(/[^a-z0-9_-]+/g, '-')}`;
  if (!dataset.startsWith(`${EXTRACT_GROUP}/`) || dataset.split('/').length !== 2) throw new DatasetImportError(`--dataset must be ${EXTRACT_GROUP}/NAME, not ${dataset}`);
  return importRoadLayer(store, file, dataset, { ...options, dataset: undefined });
}

async function importRoadLayer(store: DatasetStore, file: string, target: string, options: DatasetImportOptions): Promise<DatasetImportResult> {
  const sources = new Set<string>();
  const stats: Record<string, number> = {
    nodes: 0, ways: 0, road_ways: 0, road_nodes: 0, relations: 0, restrictions: 0, restrictions_via_way: 0, restrictions_unusable: 0,
    tagged_nodes: 0, ways_missing_nodes: 0, oneway: 0, roundabouts: 0, with_lanes: 0, with_turn_lanes: 0, with_surface: 0, with_maxspeed: 0, fords: 0, flood_prone: 0, bridges: 0,
  };
  const ways: Array<{ id: number; tags: Record<string, string>; refs: number[] }> = [];
  const restrictions: TurnRestrictionRecord[] = [];
  const taggedNodes = new Map<number, RoadNodeRecord>();
  const progress = (phase: string) => (done: number, total: number) => options.onProgress?.({ phase, done, total, records: ways.length });
  await readOsm(
    file,
    {
      node(id, lat, lng, tags) {
        stats.nodes++;
        if (tags && roadNodeOfInterest(tags)) taggedNodes.set(id, { type: 'node', id, lat, lng, tags: pickTags(tags, ROAD_NODE_TAG_KEYS) });
      },
      way(id, tags, refs) {
        stats.ways++;
        if (!isRoutableHighway(tags)) return;
        const nodes = refs();
        if (nodes.length < 2) return;
        sources.add(tags.source ?? '');
        ways.push({ id, tags: pickTags(tags, ROAD_TAG_KEYS), refs: nodes });
      },
      relation(id, tags, members) {
        stats.relations++;
        if (tags.type !== 'restriction') return;
        const restriction = restrictionOf(id, tags, members());
        if (restriction) restrictions.push(restriction);
        else stats.restrictions_unusable++;
      },
    },
    progress('reading'),
  );
  if (ways.length === 0) throw new DatasetImportError(`no routable highway way in ${path.basename(file)} (${stats.nodes} nodes, ${stats.ways} tagged ways)`);

  // Positions as fixed-point pairs in one typed array: two Int32 per needed node.
  const slots = new Map<number, number>();
  for (const way of ways) for (const ref of way.refs) if (!slots.has(ref)) slots.set(ref, slots.size);
  const positions = new Int32Array(slots.size * 2);
  const seen = new Uint8Array(slots.size);
  let found = 0;
  await readOsm(
    file,
    {
      node(id, lat, lng) {
        const at = slots.get(id);
        if (at === undefined || seen[at]) return;
        seen[at] = 1;
        positions[2 * at] = Math.round(lat * 1e7);
        positions[2 * at + 1] = Math.round(lng * 1e7);
        found++;
      },
      finished: () => found === slots.size,
    },
    progress('node positions (second pass)'),
  );
  const size = (await stat(file)).size;
  progress('node positions (second pass)')(size, size);

  const writer = await store.begin(target);
  try {
    const usedWays = new Set<number>();
    const usedNodes = new Set<number>();
    for (const [index, way] of ways.entries()) {
      const nodes: number[] = [];
      const points: Array<[number, number]> = [];
      for (const ref of way.refs) {
        const at = slots.get(ref)!;
        if (!seen[at]) continue;
        if (nodes.length > 0 && nodes[nodes.length - 1] === ref) continue;
        nodes.push(ref);
        points.push([positions[2 * at] / 1e7, positions[2 * at + 1] / 1e7]);
      }
      if (nodes.length < way.refs.length) stats.ways_missing_nodes++;
      if (nodes.length < 2) continue;
      const record: RoadWayRecord = { type: 'way', id: way.id, tags: way.tags, nodes, points };
      writer.add(record);
      usedWays.add(way.id);
      for (const node of nodes) usedNodes.add(node);
      count(stats, way.tags);
      if (index % 2000 === 0) {
        await writer.flushIfFull();
        options.onProgress?.({ phase: 'writing', done: index, total: ways.length, records: writer.records });
      }
    }
    stats.road_ways = usedWays.size;
    stats.road_nodes = usedNodes.size;
    for (const node of taggedNodes.values()) {
      if (!usedNodes.has(node.id)) continue;
      writer.add(node);
      stats.tagged_nodes++;
      if (node.tags.ford === 'yes') stats.fords++;
      if (node.tags.flood_prone === 'yes') stats.flood_prone++;
    }
    for (const restriction of restrictions) {
      if (!usedWays.has(restriction.from) || !usedWays.has(restriction.to)) continue;
      writer.add(restriction);
      stats.restrictions++;
      if (restriction.via_node === null) stats.restrictions_via_way++;
    }
    await writer.flushIfFull();
    options.onProgress?.({ phase: 'writing', done: ways.length, total: ways.length, records: writer.records });
    return { version: await writer.commit({ sources: [path.basename(file)], attribution: attributionOf(sources), stats }, options.beforeSwitch), stats };
  } catch (error) {
    await writer.abort();
    throw error;
  }
}

function count(stats: Record<string, number>, tags: Record<string, string>): void {
  if (tags.oneway && tags.oneway !== 'no') stats.oneway++;
  if (tags.junction === 'roundabout' || tags.junction === 'circular') stats.roundabouts++;
  if (tags.lanes) stats.with_lanes++;
  if (tags['turn:lanes'] || tags['turn:lanes:forward'] || tags['turn:lanes:backward']) stats.with_turn_lanes++;
  if (tags.surface) stats.with_surface++;
  if (tags.maxspeed) stats.with_maxspeed++;
  if (tags.ford === 'yes') stats.fords++;
  if (tags.flood_prone === 'yes') stats.flood_prone++;
  if (tags.bridge && tags.bridge !== 'no') stats.bridges++;
}

/** A `type=restriction` relation as the engine reads it: one from way, one to way, a via node or via ways. */
export function restrictionOf(id: number, tags: Readonly<Record<string, string>>, members: OsmMember[]): TurnRestrictionRecord | null {
  let restriction = tags.restriction;
  let onlyFor: string | null = null;
  if (!restriction) {
    const key = Object.keys(tags).find((name) => name.startsWith('restriction:') && !name.startsWith('restriction:conditional'));
    if (!key) return null;
    restriction = tags[key];
    onlyFor = key.slice('restriction:'.length);
  }
  if (!/^(no|only)_/.test(restriction)) return null;
  const from = members.filter((member) => member.role === 'from' && member.type === 'way');
  const to = members.filter((member) => member.role === 'to' && member.type === 'way');
  const viaNodes = members.filter((member) => member.role === 'via' && member.type === 'node');
  const viaWays = members.filter((member) => member.role === 'via' && member.type === 'way');
  if (from.length !== 1 || to.length !== 1 || viaNodes.length + (viaWays.length > 0 ? 1 : 0) !== 1) return null;
  return {
    type: 'restriction',
    id,
    restriction,
    only_for: onlyFor,
    except: (tags.except ?? '').split(';').map((value) => value.trim()).filter(Boolean),
    from: from[0].ref,
    via_node: viaNodes[0]?.ref ?? null,
    via_ways: viaWays.map((member) => member.ref),
    to: to[0].ref,
  };
}
