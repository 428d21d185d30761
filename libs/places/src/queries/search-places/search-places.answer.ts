import { Type } from '@sinclair/typebox';
import { defineAnswer, Nullable } from '../../../../platform/src/index.js';

const PlaceHit = Type.Object({
  id: Type.String({ description: '`geonames:<id>`, `osm:node/<id>` or `osm:way/<id>`: stable across imports of the same source' }),
  name: Type.String(),
  kind: Type.String({ description: 'What it is, in one word: city, village, district, hospital, bus_stop…' }),
  feature: Type.String({ description: 'The source’s own classification: `P.PPLA` (GeoNames) or `amenity=hospital` (OSM)' }),
  lat: Type.Number(),
  lng: Type.Number(),
  region: Nullable(Type.String()),
  district: Nullable(Type.String()),
  population: Nullable(Type.Integer()),
  score: Type.Number({ description: 'Name match × importance × nearness, for ordering' }),
  match: Type.Union([Type.Literal('exact'), Type.Literal('partial'), Type.Literal('prefix'), Type.Literal('alternate'), Type.Literal('fuzzy')]),
  matched_name: Nullable(Type.String({ description: 'The alternate name that matched, when not the name itself' })),
  distance_m: Nullable(Type.Number({ description: 'From `near` (or lat/lng); null without one' })),
  phone: Nullable(Type.String()),
  website: Nullable(Type.String()),
  opening_hours: Nullable(Type.String()),
  source: Type.Union([Type.Literal('geonames'), Type.Literal('osm')]),
});

/** GET /v2/search (ADR 39). */
export const PlaceSearchAnswerSchema = defineAnswer(
  'PlaceSearchAnswer',
  Type.Object({
    query: Type.String(),
    items: Type.Array(PlaceHit),
    next_cursor: Nullable(Type.String({ description: 'Pass as `cursor` for the next page; null on the last' })),
    did_you_mean: Nullable(Type.String()),
    attribution: Type.Array(Type.String(), { description: 'What the sources of these results require wherever they are shown' }),
    datasets: Type.Array(Type.Object({ dataset: Type.String(), version: Type.String(), imported_at: Type.String({ format: 'date-time' }) })),
    coverage: Type.Object({ countries: Type.Array(Type.String(), { description: 'ISO 3166-1 alpha-2 codes of the countries the data covers' }) }),
    outside_coverage: Nullable(
      Type.Object(
        { name: Type.String(), country: Type.String(), country_name: Type.String(), note: Type.String() },
        { description: 'Set when the query names a well-known place outside coverage (Lagos, Abidjan, Lomé): the results are not it' },
      ),
    ),
  }),
  {
    query: 'madina',
    items: [
      {
        id: 'geonames:2297141',
        name: 'Madina',
        kind: 'town',
        feature: 'P.PPL',
        lat: 5.6683,
        lng: -0.1654,
        region: 'Greater Accra',
        district: 'La Nkwantanang Madina',
        population: 137162,
        score: 0.91,
        match: 'exact',
        matched_name: null,
        distance_m: null,
        phone: null,
        website: null,
        opening_hours: null,
        source: 'geonames',
      },
    ],
    next_cursor: null,
    did_you_mean: null,
    attribution: ['GeoNames (geonames.org), CC BY 4.0'],
    datasets: [{ dataset: 'places/geonames', version: '2026-11-01', imported_at: '2026-11-01T06:00:00.000Z' }],
    coverage: { countries: ['GH'] },
    outside_coverage: null,
  },
);
