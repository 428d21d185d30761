import { open } from 'node:fs/promises';
import { promisify } from 'node:util';
import { inflate } from 'node:zlib';
import { ProtoReader, WIRE } from './protobuf.js';
import { OsmFormatError, type OsmMember, type OsmVisitor, type ReadProgress } from './osm-source.js';
import type { OsmTags } from './osm-source.js';

/**
 * A streaming reader of OpenStreetMap's binary format (.osm.pbf,
 * wiki.openstreetmap.org/wiki/PBF_Format): the file is a sequence of
 * [4-byte length][BlobHeader][Blob]; each blob is read on its own (at most
 * 32 MiB by the format), inflated with zlib, and its PrimitiveBlock decoded:
 * string table, dense and plain nodes, ways, and relations for a visitor that
 * asks for them. The next
 * blobs are read and inflated (in libuv's pool) while one is decoded.
 */
const inflateAsync = promisify(inflate);

const MAX_HEADER_BYTES = 64 * 1024;
const MAX_BLOB_BYTES = 32 * 1024 * 1024;
const READ_AHEAD = 3;
const SUPPORTED_FEATURES = new Set(['OsmSchema-V0.6', 'DenseNodes', 'HistoricalInformation']);

export async function readOsmPbf(file: string, visitor: OsmVisitor, progress?: ReadProgress): Promise<void> {
  const handle = await open(file, 'r');
  try {
    const total = (await handle.stat()).size;
    let offset = 0;
    let sawHeader = false;
    const queue: Array<Promise<{ type: string; data: Uint8Array; end: number } | null>> = [];
    const readNext = async (): Promise<{ type: string; data: Uint8Array; end: number } | null> => {
      if (offset >= total) return null;
      const at = offset;
      const length = (await readExactly(handle, at, 4, total)).readUInt32BE(0);
      if (length === 0 || length > MAX_HEADER_BYTES) throw new OsmFormatError(`blob header of ${length} bytes at byte ${at}: not an .osm.pbf file`);
      const header = parseBlobHeader(await readExactly(handle, at + 4, length, total));
      if (header.size > MAX_BLOB_BYTES) throw new OsmFormatError(`blob of ${header.size} bytes at byte ${at}: larger than the format allows`);
      offset = at + 4 + length + header.size;
      const blob = await readExactly(handle, at + 4 + length, header.size, total);
      return { type: header.type, data: await unpackBlob(blob), end: offset };
    };
    // Reads are chained so offsets advance in order; inflation overlaps with decoding.
    let chain: Promise<unknown> = Promise.resolve();
    const enqueue = () => {
      const next = chain.then(readNext);
      chain = next.catch(() => undefined);
      queue.push(next);
    };
    for (let i = 0; i < READ_AHEAD; i++) enqueue();
    for (;;) {
      const block = await queue.shift()!;
      enqueue();
      if (!block) break;
      if (block.type === 'OSMHeader') {
        checkHeader(block.data);
        sawHeader = true;
      } else if (block.type === 'OSMData') {
        if (!sawHeader) throw new OsmFormatError('data before the OSMHeader block: not an .osm.pbf file');
        decodePrimitiveBlock(block.data, visitor);
        await visitor.afterBlock?.();
      }
      progress?.(block.end, total);
      if (visitor.finished?.()) break;
    }
    // Let reads already started settle before the handle closes.
    await Promise.allSettled(queue);
    if (!sawHeader) throw new OsmFormatError('no OSMHeader block: not an .osm.pbf file');
  } finally {
    await handle.close();
  }
}

async function readExactly(handle: import('node:fs/promises').FileHandle, position: number, length: number, total: number): Promise<Buffer> {
  if (position + length > total) throw new OsmFormatError(`the file ends inside a block (byte ${position} + ${length} of ${total}): truncated?`);
  const buffer = Buffer.allocUnsafe(length);
  let read = 0;
  while (read < length) {
    const { bytesRead } = await handle.read(buffer, read, length - read, position + read);
    if (bytesRead === 0) throw new OsmFormatError('unexpected end of file');
    read += bytesRead;
  }
  return buffer;
}

function parseBlobHeader(bytes: Uint8Array): { type: string; size: number } {
  const reader = new ProtoReader(bytes);
  let type = '';
  let size = -1;
  while (!reader.done) {
    const { field, wire } = reader.key();
    if (field === 1 && wire === WIRE.bytes) type = reader.string();
    else if (field === 3 && wire === WIRE.varint) size = reader.varint();
    else reader.skip(wire);
  }
  if (!type || size < 0) throw new OsmFormatError('blob header without type or size: not an .osm.pbf file');
  return { type, size };
}

async function unpackBlob(bytes: Uint8Array): Promise<Uint8Array> {
  const reader = new ProtoReader(bytes);
  let rawSize = -1;
  while (!reader.done) {
    const { field, wire } = reader.key();
    switch (field) {
      case 1:
        return reader.view();
      case 2:
        rawSize = reader.varint();
        break;
      case 3: {
        if (rawSize > MAX_BLOB_BYTES) throw new OsmFormatError(`a blob of ${rawSize} bytes inflated: larger than the format allows`);
        const inflated = await inflateAsync(reader.view(), { maxOutputLength: rawSize > 0 ? rawSize : MAX_BLOB_BYTES });
        if (rawSize >= 0 && inflated.length !== rawSize) throw new OsmFormatError(`a blob inflated to ${inflated.length} bytes, its header says ${rawSize}`);
        return inflated;
      }
      case 4:
      case 5:
      case 6:
      case 7:
        throw new OsmFormatError(`blob compressed with ${['lzma', 'bzip2', 'lz4', 'zstd'][field - 4]}: only zlib and raw blobs are supported (re-encode with osmium cat --output-format pbf,pbf_compression=zlib)`);
      default:
        reader.skip(wire);
    }
  }
  throw new OsmFormatError('a blob without data');
}

function checkHeader(bytes: Uint8Array): void {
  const reader = new ProtoReader(bytes);
  while (!reader.done) {
    const { field, wire } = reader.key();
    if (field === 4 && wire === WIRE.bytes) {
      const feature = reader.string();
      if (!SUPPORTED_FEATURES.has(feature)) throw new OsmFormatError(`the file requires "${feature}", which this reader does not support`);
    } else reader.skip(wire);
  }
}

interface BlockContext {
  strings: Uint8Array[];
  decoded: Array<string | undefined>;
  granularity: number;
  latOffset: number;
  lonOffset: number;
}

const DECODER = new TextDecoder('utf-8');

function text(context: BlockContext, index: number): string {
  let value = context.decoded[index];
  if (value === undefined) {
    const bytes = context.strings[index];
    if (bytes === undefined) throw new OsmFormatError(`string index ${index} outside the block's string table`);
    value = DECODER.decode(bytes);
    context.decoded[index] = value;
  }
  return value;
}

function decodePrimitiveBlock(bytes: Uint8Array, visitor: OsmVisitor): void {
  const context: BlockContext = { strings: [], decoded: [], granularity: 100, latOffset: 0, lonOffset: 0 };
  const groups: ProtoReader[] = [];
  const reader = new ProtoReader(bytes);
  while (!reader.done) {
    const { field, wire } = reader.key();
    if (field === 1 && wire === WIRE.bytes) {
      const table = reader.sub();
      while (!table.done) {
        const entry = table.key();
        if (entry.field === 1 && entry.wire === WIRE.bytes) context.strings.push(table.view());
        else table.skip(entry.wire);
      }
    } else if (field === 2 && wire === WIRE.bytes) groups.push(reader.sub());
    else if (field === 17 && wire === WIRE.varint) context.granularity = reader.varint();
    else if (field === 19 && wire === WIRE.varint) context.latOffset = reader.varint();
    else if (field === 20 && wire === WIRE.varint) context.lonOffset = reader.varint();
    else reader.skip(wire);
  }
  for (const group of groups) {
    while (!group.done) {
      const { field, wire } = group.key();
      if (field === 1 && wire === WIRE.bytes && visitor.node) decodeNode(group.sub(), context, visitor);
      else if (field === 2 && wire === WIRE.bytes && visitor.node) decodeDenseNodes(group.sub(), context, visitor);
      else if (field === 3 && wire === WIRE.bytes && visitor.way) decodeWay(group.sub(), context, visitor);
      else if (field === 4 && wire === WIRE.bytes && visitor.relation) decodeRelation(group.sub(), context, visitor);
      else group.skip(wire);
    }
  }
}

function coordinate(context: BlockContext, offset: number, value: number): number {
  return Math.round((offset + context.granularity * value) / 100) / 1e7;
}

function decodeNode(reader: ProtoReader, context: BlockContext, visitor: OsmVisitor): void {
  let id = 0;
  let lat = 0;
  let lon = 0;
  let keys: number[] = [];
  let values: number[] = [];
  while (!reader.done) {
    const { field, wire } = reader.key();
    if (field === 1) id = reader.svarint();
    else if (field === 2) keys = reader.packed(wire, false, keys);
    else if (field === 3) values = reader.packed(wire, false, values);
    else if (field === 8) lat = reader.svarint();
    else if (field === 9) lon = reader.svarint();
    else reader.skip(wire);
  }
  visitor.node!(id, coordinate(context, context.latOffset, lat), coordinate(context, context.lonOffset, lon), tagsOf(context, keys, values));
}

function decodeDenseNodes(reader: ProtoReader, context: BlockContext, visitor: OsmVisitor): void {
  let ids: number[] = [];
  let lats: number[] = [];
  let lons: number[] = [];
  let keysValues: number[] = [];
  while (!reader.done) {
    const { field, wire } = reader.key();
    if (field === 1) ids = reader.packed(wire, true, ids);
    else if (field === 8) lats = reader.packed(wire, true, lats);
    else if (field === 9) lons = reader.packed(wire, true, lons);
    else if (field === 10) keysValues = reader.packed(wire, false, keysValues);
    else reader.skip(wire);
  }
  if (lats.length !== ids.length || lons.length !== ids.length) throw new OsmFormatError('dense nodes with unequal id, lat and lon counts');
  let id = 0;
  let lat = 0;
  let lon = 0;
  let kv = 0;
  for (let i = 0; i < ids.length; i++) {
    id += ids[i];
    lat += lats[i];
    lon += lons[i];
    let tags: Record<string, string> | null = null;
    if (kv < keysValues.length) {
      while (kv < keysValues.length && keysValues[kv] !== 0) {
        (tags ??= {})[text(context, keysValues[kv])] = text(context, keysValues[kv + 1]);
        kv += 2;
      }
      kv++;
    }
    visitor.node!(id, coordinate(context, context.latOffset, lat), coordinate(context, context.lonOffset, lon), tags);
  }
}

function decodeWay(reader: ProtoReader, context: BlockContext, visitor: OsmVisitor): void {
  let id = 0;
  let keys: number[] = [];
  let values: number[] = [];
  let refs: { start: number; end: number; wire: number } | null = null;
  while (!reader.done) {
    const { field, wire } = reader.key();
    if (field === 1) id = reader.varint();
    else if (field === 2) keys = reader.packed(wire, false, keys);
    else if (field === 3) values = reader.packed(wire, false, values);
    else if (field === 8 && wire === WIRE.bytes) refs = { ...reader.bytes(), wire };
    else reader.skip(wire);
  }
  const tags = tagsOf(context, keys, values);
  if (!tags) return;
  const buf = reader.buf;
  visitor.way!(id, tags, () => {
    const result: number[] = [];
    if (!refs) return result;
    const packed = new ProtoReader(buf, refs.start, refs.end);
    let ref = 0;
    while (!packed.done) {
      ref += packed.svarint();
      result.push(ref);
    }
    return result;
  });
}

const MEMBER_TYPES = ['node', 'way', 'relation'] as const;

function decodeRelation(reader: ProtoReader, context: BlockContext, visitor: OsmVisitor): void {
  let id = 0;
  let keys: number[] = [];
  let values: number[] = [];
  let roles: number[] = [];
  let memberIds: number[] = [];
  let types: number[] = [];
  while (!reader.done) {
    const { field, wire } = reader.key();
    if (field === 1) id = reader.varint();
    else if (field === 2) keys = reader.packed(wire, false, keys);
    else if (field === 3) values = reader.packed(wire, false, values);
    else if (field === 8) roles = reader.packed(wire, false, roles);
    else if (field === 9) memberIds = reader.packed(wire, true, memberIds);
    else if (field === 10) types = reader.packed(wire, false, types);
    else reader.skip(wire);
  }
  const tags = tagsOf(context, keys, values);
  if (!tags) return;
  if (roles.length !== memberIds.length || types.length !== memberIds.length) throw new OsmFormatError('a relation with unequal role, member and type counts');
  visitor.relation!(id, tags, () => {
    const members: OsmMember[] = [];
    let ref = 0;
    for (let i = 0; i < memberIds.length; i++) {
      ref += memberIds[i];
      const type = MEMBER_TYPES[types[i]];
      if (type) members.push({ type, ref, role: text(context, roles[i]) });
    }
    return members;
  });
}

function tagsOf(context: BlockContext, keys: number[], values: number[]): OsmTags | null {
  if (keys.length === 0) return null;
  if (keys.length !== values.length) throw new OsmFormatError('an object with unequal key and value counts');
  const tags: Record<string, string> = {};
  for (let i = 0; i < keys.length; i++) tags[text(context, keys[i])] = text(context, values[i]);
  return tags;
}
