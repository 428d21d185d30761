import { writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

/**
 * Writes a small `.osm.pbf` for tests, by the format's rules
 * (wiki.openstreetmap.org/wiki/PBF_Format): an OSMHeader blob, then one
 * OSMData blob of dense nodes and one of ways. `compress` chooses zlib or raw
 * blobs, so both paths of the reader are exercised.
 */
export interface FixtureNode {
  id: number;
  lat: number;
  lng: number;
  tags?: Record<string, string>;
}

export interface FixtureWay {
  id: number;
  refs: number[];
  tags: Record<string, string>;
}

export interface FixtureRelation {
  id: number;
  members: Array<{ type: 'node' | 'way' | 'relation'; ref: number; role: string }>;
  tags: Record<string, string>;
}

export function writePbf(
  file: string,
  content: { nodes: FixtureNode[]; ways: FixtureWay[]; relations?: FixtureRelation[] },
  options: { compress: boolean; plainNodes?: boolean },
): void {
  const header = new ProtoWriter().bytesField(4, 'OsmSchema-V0.6').bytesField(4, 'DenseNodes').bytesField(16, 'places fixture').finish();
  const parts = [blob('OSMHeader', header, options.compress)];
  parts.push(blob('OSMData', options.plainNodes ? plainNodeBlock(content.nodes) : denseNodeBlock(content.nodes), options.compress));
  parts.push(blob('OSMData', wayBlock(content.ways), options.compress));
  if (content.relations?.length) parts.push(blob('OSMData', relationBlock(content.relations), options.compress));
  writeFileSync(file, Buffer.concat(parts));
}

class StringTable {
  readonly strings: string[] = [''];
  index(value: string): number {
    let at = this.strings.indexOf(value);
    if (at < 0) at = this.strings.push(value) - 1;
    return at;
  }
  encode(): Uint8Array {
    const table = new ProtoWriter();
    for (const value of this.strings) table.bytesField(1, value);
    return table.finish();
  }
}

const GRANULARITY = 100;
const fixed = (degrees: number) => Math.round((degrees * 1e9) / GRANULARITY);

function denseNodeBlock(nodes: FixtureNode[]): Uint8Array {
  const strings = new StringTable();
  const ids: number[] = [];
  const lats: number[] = [];
  const lons: number[] = [];
  const keysValues: number[] = [];
  let previous = { id: 0, lat: 0, lon: 0 };
  for (const node of nodes) {
    const current = { id: node.id, lat: fixed(node.lat), lon: fixed(node.lng) };
    ids.push(current.id - previous.id);
    lats.push(current.lat - previous.lat);
    lons.push(current.lon - previous.lon);
    previous = current;
    for (const [key, value] of Object.entries(node.tags ?? {})) keysValues.push(strings.index(key), strings.index(value));
    keysValues.push(0);
  }
  const dense = new ProtoWriter().packedField(1, ids, true).packedField(8, lats, true).packedField(9, lons, true).packedField(10, keysValues, false).finish();
  const group = new ProtoWriter().bytesField(2, dense).finish();
  return new ProtoWriter().bytesField(1, strings.encode()).bytesField(2, group).varintField(17, GRANULARITY).finish();
}

function plainNodeBlock(nodes: FixtureNode[]): Uint8Array {
  const strings = new StringTable();
  const group = new ProtoWriter();
  for (const node of nodes) {
    const tags = Object.entries(node.tags ?? {});
    const message = new ProtoWriter()
      .svarintField(1, node.id)
      .packedField(2, tags.map(([key]) => strings.index(key)), false)
      .packedField(3, tags.map(([, value]) => strings.index(value)), false)
      .svarintField(8, fixed(node.lat))
      .svarintField(9, fixed(node.lng))
      .finish();
    group.bytesField(1, message);
  }
  return new ProtoWriter().bytesField(1, strings.encode()).bytesField(2, group.finish()).finish();
}

function wayBlock(ways: FixtureWay[]): Uint8Array {
  const strings = new StringTable();
  const group = new ProtoWriter();
  for (const way of ways) {
    const tags = Object.entries(way.tags);
    const deltas = way.refs.map((ref, index) => ref - (index === 0 ? 0 : way.refs[index - 1]));
    const message = new ProtoWriter()
      .varintField(1, way.id)
      .packedField(2, tags.map(([key]) => strings.index(key)), false)
      .packedField(3, tags.map(([, value]) => strings.index(value)), false)
      .packedField(8, deltas, true)
      .finish();
    group.bytesField(3, message);
  }
  return new ProtoWriter().bytesField(1, strings.encode()).bytesField(2, group.finish()).finish();
}

function relationBlock(relations: FixtureRelation[]): Uint8Array {
  const strings = new StringTable();
  const group = new ProtoWriter();
  const types = { node: 0, way: 1, relation: 2 };
  for (const relation of relations) {
    const tags = Object.entries(relation.tags);
    const deltas = relation.members.map((member, index) => member.ref - (index === 0 ? 0 : relation.members[index - 1].ref));
    const message = new ProtoWriter()
      .varintField(1, relation.id)
      .packedField(2, tags.map(([key]) => strings.index(key)), false)
      .packedField(3, tags.map(([, value]) => strings.index(value)), false)
      .packedField(8, relation.members.map((member) => strings.index(member.role)), false)
      .packedField(9, deltas, true)
      .packedField(10, relation.members.map((member) => types[member.type]), false)
      .finish();
    group.bytesField(4, message);
  }
  return new ProtoWriter().bytesField(1, strings.encode()).bytesField(2, group.finish()).finish();
}

function blob(type: string, payload: Uint8Array, compress: boolean): Buffer {
  const body = compress ? new ProtoWriter().varintField(2, payload.length).bytesField(3, deflateSync(payload)).finish() : new ProtoWriter().bytesField(1, payload).finish();
  const header = new ProtoWriter().bytesField(1, type).varintField(3, body.length).finish();
  const length = Buffer.alloc(4);
  length.writeUInt32BE(header.length);
  return Buffer.concat([length, header, body]);
}

/** The encoder side of the wire format, enough for fixtures. */
export class ProtoWriter {
  private readonly bytes: number[] = [];

  varintField(field: number, value: number): this {
    this.raw(field * 8);
    this.raw(value);
    return this;
  }

  svarintField(field: number, value: number): this {
    return this.varintField(field, zigzag(value));
  }

  bytesField(field: number, value: Uint8Array | string): this {
    const bytes = typeof value === 'string' ? new TextEncoder().encode(value) : value;
    this.raw(field * 8 + 2);
    this.raw(bytes.length);
    for (const byte of bytes) this.bytes.push(byte);
    return this;
  }

  packedField(field: number, values: number[], signed: boolean): this {
    const inner = new ProtoWriter();
    for (const value of values) inner.raw(signed ? zigzag(value) : value);
    return this.bytesField(field, inner.finish());
  }

  finish(): Uint8Array {
    return Uint8Array.from(this.bytes);
  }

  raw(value: number): void {
    let rest = value;
    while (rest >= 0x80) {
      this.bytes.push((rest % 128) | 0x80);
      rest = Math.floor(rest / 128);
    }
    this.bytes.push(rest);
  }
}

function zigzag(value: number): number {
  return value < 0 ? -2 * value - 1 : 2 * value;
}
