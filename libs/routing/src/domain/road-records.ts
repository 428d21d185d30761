/**
 * What a road dataset holds (`DATA_DIR/reference/roads/<version>/records.ndjson`,
 * written by `npm run ops -- import:roads`, switched atomically like the place
 * sets, docs/adr/0011): one JSON record a line, the ways first, then the
 * tagged nodes the engine reads (fords, flood-prone spots, signals), then the
 * turn restrictions. Only the tags routing needs are kept (ROAD_TAG_KEYS).
 */
export interface RoadWayRecord {
  type: 'way';
  id: number;
  tags: Record<string, string>;
  nodes: number[];
  /** [lat, lng] of each node, in order. */
  points: Array<[number, number]>;
  /** Which dataset of a layered network it came from (docs/adr/0035): set when the layers are combined, never stored. */
  layer?: number;
  /** Open-road speeds apply (the backbone between towns, docs/adr/0035); set when the layers are combined. */
  open_road?: boolean;
}

export interface RoadNodeRecord {
  type: 'node';
  id: number;
  lat: number;
  lng: number;
  tags: Record<string, string>;
}

export interface TurnRestrictionRecord {
  type: 'restriction';
  id: number;
  /** `no_left_turn`, `only_straight_on`… (`restriction` or `restriction:<mode>`). */
  restriction: string;
  /** Modes the relation names (`restriction:motorcar`) or null for all; `except` lists exempt vehicles. */
  only_for: string | null;
  except: string[];
  from: number;
  /** A via node, or null when the relation's via members are ways (via_ways, applied as forbidden edge sequences, ADR 0018). */
  via_node: number | null;
  via_ways: number[];
  to: number;
}

export type RoadRecord = RoadWayRecord | RoadNodeRecord | TurnRestrictionRecord;

/** The way tags routing reads (issue #15, "Road graph"); the rest are dropped at import. */
export const ROAD_TAG_KEYS: readonly string[] = [
  'highway', 'name', 'ref', 'alt_name', 'loc_name', 'junction', 'oneway', 'oneway:bicycle', 'oneway:foot', 'oneway:moped', 'oneway:motorcycle',
  'access', 'vehicle', 'motor_vehicle', 'motorcar', 'motorcycle', 'moped', 'bicycle', 'foot', 'cycleway',
  'maxspeed', 'lanes', 'lanes:forward', 'lanes:backward', 'turn:lanes', 'turn:lanes:forward', 'turn:lanes:backward',
  'surface', 'smoothness', 'tracktype', 'bridge', 'tunnel', 'ford', 'flood_prone', 'layer', 'area', 'destination', 'toll',
];

/** Node tags that matter to a route crossing the node. */
export const ROAD_NODE_TAG_KEYS: readonly string[] = ['ford', 'flood_prone', 'highway', 'barrier', 'name'];

export function roadNodeOfInterest(tags: Readonly<Record<string, string>>): boolean {
  return tags.ford === 'yes' || tags.flood_prone === 'yes' || tags.highway === 'traffic_signals' || tags.highway === 'motorway_junction' || tags.barrier !== undefined;
}

export function pickTags(tags: Readonly<Record<string, string>>, keys: readonly string[]): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const key of keys) if (tags[key] !== undefined) kept[key] = tags[key].slice(0, 255);
  return kept;
}
