import { Type } from '@sinclair/typebox';
import { defineAnswer } from '../../../../../platform/src/index.js';
import { SERVICE_AREA_CONTAINMENTS } from '../../domain/service-area.js';

/** POST /v2/service-area (ADR 39). */
export const ServiceAreaAnswerSchema = defineAnswer(
  'ServiceAreaAnswer',
  Type.Object({
    resolution: Type.Integer(),
    containment: Type.Union(SERVICE_AREA_CONTAINMENTS.map((containment) => Type.Literal(containment))),
    compact: Type.Boolean({ description: 'Cells merged into their parents where all children are in' }),
    cell_count: Type.Integer(),
    cells: Type.Array(Type.String(), { description: 'Hex codes, in the same order as h3_cells' }),
    h3_cells: Type.Array(Type.String()),
  }),
  { resolution: 9, containment: 'center', compact: false, cell_count: 2, cells: ['26S12W6K', '26S12WE3'], h3_cells: ['8975769517bffff', '897576951a3ffff'] },
);
