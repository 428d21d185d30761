import { StringDecoder } from 'node:string_decoder';
import { OsmFormatError, type OsmMember, type OsmVisitor, type ReadProgress } from './osm-source.js';
import { openSource, sourceFile } from '../source-file.js';

/**
 * A streaming reader of OSM XML (.osm, Overpass output): a small tokenizer for
 * the regular subset OSM writers produce (elements with attributes; comments,
 * processing instructions, CDATA and doctype skipped; text ignored). It keeps
 * one unfinished tag of the current chunk in memory, never the document.
 */
export async function readOsmXml(file: string, visitor: OsmVisitor, progress?: ReadProgress): Promise<void> {
  const source = await sourceFile(file);
  const { input, file: raw } = openSource(source);
  // A UTF-8 sequence may straddle two chunks: the decoder holds its first bytes back.
  const decoder = new StringDecoder('utf8');
  const parser = new OsmXmlParser(visitor);
  try {
    for await (const chunk of input as AsyncIterable<Buffer>) {
      parser.feed(decoder.write(chunk));
      await visitor.afterBlock?.();
      progress?.(raw.bytesRead, source.size);
      if (visitor.finished?.()) break;
    }
  } finally {
    input.destroy();
    raw.destroy();
  }
  if (!visitor.finished?.()) {
    parser.feed(decoder.end());
    parser.end();
    await visitor.afterBlock?.();
  }
}

interface OpenObject {
  kind: 'node' | 'way' | 'relation';
  id: number;
  lat: number;
  lng: number;
  tags: Record<string, string> | null;
  refs: number[];
  members: OsmMember[];
}

const ATTRIBUTE = /([A-Za-z_:][\w:.-]*)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
const MAX_PENDING_CHARS = 1 << 20;

export class OsmXmlParser {
  private pending = '';
  private current: OpenObject | null = null;
  private sawRoot = false;

  constructor(private readonly visitor: OsmVisitor) {}

  feed(chunk: string): void {
    const text = this.pending + chunk;
    let position = 0;
    for (;;) {
      const open = text.indexOf('<', position);
      if (open < 0) {
        position = text.length;
        break;
      }
      const close = findTagEnd(text, open);
      if (close < 0) {
        position = open;
        break;
      }
      this.tag(text.slice(open + 1, close));
      position = close + 1;
    }
    this.pending = text.slice(position);
    if (this.pending.length > MAX_PENDING_CHARS) throw new OsmFormatError('an XML tag longer than 1 MiB: not OSM XML');
  }

  end(): void {
    if (this.pending.trim() !== '' || this.current) throw new OsmFormatError('the XML ends inside an element: truncated file?');
    if (!this.sawRoot) throw new OsmFormatError('no <osm> element: not OSM XML');
  }

  private tag(body: string): void {
    const first = body.charCodeAt(0);
    if (first === 63 /* ? */ || first === 33 /* ! */) return;
    if (first === 47 /* / */) {
      const name = body.slice(1).trim();
      if (this.current && name === this.current.kind) this.emit();
      return;
    }
    const selfClosing = body.endsWith('/');
    const nameEnd = body.search(/[\s/]|$/);
    const name = body.slice(0, nameEnd);
    switch (name) {
      case 'osm':
      case 'osmChange':
        this.sawRoot = true;
        return;
      case 'node':
      case 'way':
      case 'relation': {
        const attributes = parseAttributes(body);
        const id = Number(attributes.id);
        if (!Number.isSafeInteger(id)) throw new OsmFormatError(`<${name}> without a numeric id`);
        this.current = { kind: name, id, lat: Number(attributes.lat), lng: Number(attributes.lon), tags: null, refs: [], members: [] };
        if (selfClosing) this.emit();
        return;
      }
      case 'tag': {
        if (!this.current) return;
        const attributes = parseAttributes(body);
        if (attributes.k !== undefined && attributes.v !== undefined) (this.current.tags ??= {})[attributes.k] = attributes.v;
        return;
      }
      case 'nd': {
        if (this.current?.kind !== 'way') return;
        const ref = Number(parseAttributes(body).ref);
        if (Number.isSafeInteger(ref)) this.current.refs.push(ref);
        return;
      }
      case 'member': {
        if (this.current?.kind !== 'relation') return;
        const attributes = parseAttributes(body);
        const ref = Number(attributes.ref);
        const type = attributes.type;
        if (Number.isSafeInteger(ref) && (type === 'node' || type === 'way' || type === 'relation')) this.current.members.push({ type, ref, role: attributes.role ?? '' });
        return;
      }
      default:
        return;
    }
  }

  private emit(): void {
    const object = this.current;
    this.current = null;
    if (!object) return;
    if (object.kind === 'node') {
      if (Number.isFinite(object.lat) && Number.isFinite(object.lng)) this.visitor.node?.(object.id, object.lat, object.lng, object.tags);
    } else if (object.kind === 'way' && object.tags) {
      this.visitor.way?.(object.id, object.tags, () => object.refs);
    } else if (object.kind === 'relation' && object.tags) {
      this.visitor.relation?.(object.id, object.tags, () => object.members);
    }
  }
}

/** The index of the `>` closing the tag opened at `open`, skipping quoted attribute values; -1 if not in `text` yet. */
function findTagEnd(text: string, open: number): number {
  if (text.startsWith('<!--', open)) {
    const end = text.indexOf('-->', open + 4);
    return end < 0 ? -1 : end + 2;
  }
  if (text.startsWith('<![CDATA[', open)) {
    const end = text.indexOf(']]>', open + 9);
    return end < 0 ? -1 : end + 2;
  }
  let quote = 0;
  for (let i = open + 1; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (quote !== 0) {
      if (code === quote) quote = 0;
    } else if (code === 34 || code === 39) quote = code;
    else if (code === 62) return i;
  }
  return -1;
}

function parseAttributes(body: string): Record<string, string> {
  const attributes: Record<string, string> = {};
  ATTRIBUTE.lastIndex = 0;
  for (let match = ATTRIBUTE.exec(body); match; match = ATTRIBUTE.exec(body)) attributes[match[1]] = decodeEntities(match[2] ?? match[3]);
  return attributes;
}

const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

export function decodeEntities(value: string): string {
  if (!value.includes('&')) return value;
  return value.replace(/&(#x[0-9a-fA-F]+|#\d+|[a-z]+);/g, (entity, body: string) => {
    if (body.startsWith('#x')) return safeCodePoint(parseInt(body.slice(2), 16)) ?? entity;
    if (body.startsWith('#')) return safeCodePoint(parseInt(body.slice(1), 10)) ?? entity;
    return NAMED_ENTITIES[body] ?? entity;
  });
}

function safeCodePoint(code: number): string | undefined {
  return Number.isInteger(code) && code >= 0 && code <= 0x10ffff ? String.fromCodePoint(code) : undefined;
}
