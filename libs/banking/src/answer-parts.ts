import { Type } from '@sinclair/typebox';

/** `T | null`, as the banking answers write a value that is not there (ADR 39). */
export const OrNull = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

/** A loan's collection zone, as registered (domain/loan.ts, CollectionZone). */
export const CollectionZoneSchema = Type.Union(
  [
    Type.Object({ type: Type.Literal('point'), lat: Type.Number(), lng: Type.Number(), radius_m: Type.Number() }),
    Type.Object({ type: Type.Literal('hex'), code: Type.String({ description: 'The address (hex) code of the cell' }), h3_cell: Type.String({ description: 'The H3 cell the code names' }) }),
    Type.Object({
      type: Type.Literal('polygon'),
      polygon: Type.Object({ type: Type.Literal('Polygon'), coordinates: Type.Array(Type.Array(Type.Array(Type.Number())), { description: 'GeoJSON rings of [lng, lat]' }) }),
    }),
  ],
  { description: 'Where the borrower is collected: a circle, an address code cell, or a GeoJSON polygon' },
);
