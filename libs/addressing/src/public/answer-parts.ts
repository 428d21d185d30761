import { Type } from '@sinclair/typebox';
import { PROVENANCE_SOURCES } from '../domain/provenance.js';

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

/** `T | null`, as the answers write a part the data cannot give. */
export const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);
