import { Type } from '@sinclair/typebox';
import { defineAnswer, Literals, Nullable } from '../../../../platform/src/index.js';


/** The PMTiles v3 header's description of an archive (domain/pmtiles-header.ts). */
const PmtilesHeaderSchema = Type.Object(
  {
    spec_version: Type.Integer(),
    tile_type: Literals(['unknown', 'mvt', 'png', 'jpeg', 'webp', 'avif', 'mlt']),
    tile_compression: Literals(['unknown', 'none', 'gzip', 'brotli', 'zstd']),
    min_zoom: Type.Integer(),
    max_zoom: Type.Integer(),
    bounds: Type.Object({ west: Type.Number(), south: Type.Number(), east: Type.Number(), north: Type.Number() }),
    center: Type.Object({ lat: Type.Number(), lng: Type.Number(), zoom: Type.Integer() }),
    addressed_tiles: Type.Integer(),
  },
  { description: 'From the archive header; null for a file that is not a PMTiles v3 archive' },
);

/** GET /v2/tiles (ADR 39). */
export const ListArchivesAnswerSchema = defineAnswer(
  'TileArchivesAnswer',
  Type.Object({
    items: Type.Array(
      Type.Object({
        name: Type.String(),
        url: Type.String({ description: 'Where GET /v2/tiles/{name} serves it' }),
        size_bytes: Type.Integer(),
        etag: Type.String({ description: 'The strong ETag GET answers with' }),
        last_modified: Type.String({ format: 'date-time', description: 'The file\'s modification time (GET sends it as Last-Modified)' }),
        pmtiles: Nullable(PmtilesHeaderSchema),
      }),
    ),
    next_cursor: Nullable(Type.String({ description: 'The last name of this page, for `cursor`; null on the last page' })),
  }),
  {
    items: [
      {
        name: 'accra',
        url: '/v2/tiles/accra',
        size_bytes: 18874368,
        etag: '"1200000-187b2c4e9d0a3f00"',
        last_modified: '2026-11-26T22:15:04.000Z',
        pmtiles: {
          spec_version: 3,
          tile_type: 'mvt',
          tile_compression: 'gzip',
          min_zoom: 0,
          max_zoom: 14,
          bounds: { west: -0.45, south: 5.45, east: 0.1, north: 5.85 },
          center: { lat: 5.6037, lng: -0.187, zoom: 12 },
          addressed_tiles: 21847,
        },
      },
    ],
    next_cursor: null,
  },
);
