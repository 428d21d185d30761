/**
 * What an OSM reader (XML or PBF) reports, object by object, synchronously:
 * the readers stream the file block by block and call these for each object,
 * so a country extract never sits in memory. Relations are reported only to
 * a visitor that asks for them (`relation`): the road importer reads turn
 * restrictions from them; the place importer does not.
 */
/** An OSM object's tags, key → value. */
export type OsmTags = Readonly<Record<string, string>>;

/** Every OSM file names this (ODbL): a dataset read from one carries it in its attribution. */
export const OSM_ATTRIBUTION = '© OpenStreetMap contributors';

export interface OsmMember {
  type: 'node' | 'way' | 'relation';
  ref: number;
  role: string;
}

export interface OsmVisitor {
  /** `tags` is null for an untagged node (most of them: way geometry). */
  node?(id: number, lat: number, lng: number, tags: OsmTags | null): void;
  /** Tagged ways only; `refs` decodes the node list on demand. */
  way?(id: number, tags: OsmTags, refs: () => number[]): void;
  /** Tagged relations only; `members` decodes the member list on demand. */
  relation?(id: number, tags: OsmTags, members: () => OsmMember[]): void;
  /** Awaited after each block (PBF) or chunk (XML): where buffered output is written. */
  afterBlock?(): Promise<void>;
  /** Polled between blocks: true stops the read early. */
  finished?(): boolean;
}

/** Bytes of the file read so far, of its size. */
export type ReadProgress = (done: number, total: number) => void;

export type OsmReader = (file: string, visitor: OsmVisitor, progress?: ReadProgress) => Promise<void>;

export class OsmFormatError extends Error {}
