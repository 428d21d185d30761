import { Type } from '@sinclair/typebox';
import { Nullable } from '../../../platform/src/index.js';
import { PROVENANCE_SOURCES } from '../domain/provenance.js';

export { Nullable };

/**
 * Schema parts other answers repeat (ADR 39): where a point came from and which
 * dataset version said so. Published so every context documents them alike.
 */
export const ProvenanceSchema = Type.Object(
  {
    source: Type.Union(PROVENANCE_SOURCES.map((source) => Type.Literal(source))),
    provider: Type.String({ description: 'Who or what established the point' }),
    accuracy_meters: Type.Number({ description: 'How far the true point may lie from the one given (docs/adr/0030)' }),
    confidence: Type.Number({ minimum: 0, maximum: 1 }),
    verified_at: Type.String({ format: 'date-time', description: 'When the point was last established from its source, never simply "now"' }),
    confirmed_by: Type.Optional(Type.String({ description: 'For user_confirmed and agent_verified: who confirmed' })),
  },
  { description: 'Where a point came from (docs/adr/0030)' },
);

export const DatasetRefSchema = Type.Object({
  dataset: Type.String(),
  version: Type.String(),
  imported_at: Type.String({ format: 'date-time' }),
  attribution: Type.Optional(Type.Array(Type.String(), { description: 'What the source requires wherever its data is shown' })),
});

/** What is public about a GhanaPostGPS address (docs/adr/0035): the region from its prefix, nothing guessed. */
export const GhanaPostDecodingSchema = Type.Object(
  {
    kind: Type.Literal('ghanapost_gps'),
    code: Type.String({ description: 'Canonical form, `GA-123-4567`' }),
    prefix: Type.String({ description: 'The area prefix (`GA`)' }),
    region: Nullable(
      Type.Object({
        letter: Type.String(),
        name: Type.String({ description: 'The region the letter stood for at the system’s launch (2017)' }),
        current_regions: Type.Array(Type.String(), { description: 'The regions of today that lie in it (2019 reorganisation)' }),
      }),
    ),
    district: Type.Null({ description: 'Always null: the district letters are not published' }),
    point_available: Type.Literal(false, { description: 'The point is on GhanaPost’s own grid' }),
    note: Type.String(),
  },
  { description: 'A GhanaPostGPS digital address: what is public about it' },
);

const NamedPart = {
  name: Type.String(),
  dataset: Type.String({ description: 'The dataset the part was read from; its version is in `datasets`' }),
  distance_m: Type.Number(),
};

/** The place a point is in, as GET /v2/reverse and bulk point items name it (issue 28, item 7). */
export const ReverseAddressSchema = Type.Object({
  country: Nullable(Type.Object({ code: Type.String(), name: Type.String() })),
  region: Nullable(Type.Object(NamedPart)),
  district: Nullable(Type.Object(NamedPart)),
  locality: Nullable(Type.Object({ ...NamedPart, kind: Type.String(), lat: Type.Number(), lng: Type.Number() })),
  road: Nullable(Type.Object({ ...NamedPart, ref: Nullable(Type.String()) })),
  landmark: Nullable(Type.Object({ ...NamedPart, kind: Type.String(), slug: Type.String(), lat: Type.Number(), lng: Type.Number() })),
  formatted: Nullable(Type.String({ description: 'One line, the way directions are given in Ghana' })),
  datasets: Type.Array(DatasetRefSchema),
});
