import { Type } from '@sinclair/typebox';
import { MODES } from '../domain/profiles.js';

/** Schema parts the routing answers share (ADR 39). */

export const ModeSchema = Type.Union(MODES.map((mode) => Type.Literal(mode)));

/**
 * `[lng, lat]`, as GeoJSON writes a position. An array of two numbers rather
 * than a TypeBox tuple: a tuple's `items: [...]` is not JSON Schema 2020-12
 * (OpenAPI 3.1), which writes tuples as `prefixItems`.
 */
export const LngLatSchema = Type.Array(Type.Number(), { minItems: 2, maxItems: 2, description: '[lng, lat]' });

export const ATTRIBUTION_EXAMPLE = ['© OpenStreetMap contributors'];
