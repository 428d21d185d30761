import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { cellToLatLng } from 'h3-js';
import { trafficLevel } from '../../../../routing/src/index.js';
import { TrafficView } from '../../public/traffic-view.js';
import { inBox, type Box } from '../bbox.js';
import type { AnswerOf } from '../../../../platform/src/index.js';
import type { TrafficHeatmapSchema } from './traffic-heatmap.answer.js';

/** At most this many cells in one answer. */
export const HEATMAP_MAX_CELLS = 5000;

export type TrafficHeatmap = AnswerOf<typeof TrafficHeatmapSchema>;
export type HeatmapCell = TrafficHeatmap['cells'][number];

/** GET /v2/analytics/traffic-heatmap?bbox=. */
export class TrafficHeatmapQuery extends Query<TrafficHeatmap> {
  constructor(readonly box: Box) {
    super();
  }
}

/** The hex cells with samples of their own inside the box, each with the model's figure and whether it is learned or still the prior. */
@QueryHandler(TrafficHeatmapQuery)
export class TrafficHeatmapHandler implements IQueryHandler<TrafficHeatmapQuery> {
  constructor(private readonly view: TrafficView) {}

  async execute({ box }: TrafficHeatmapQuery): Promise<TrafficHeatmap> {
    const cells: HeatmapCell[] = [];
    for (const entry of this.view.learned.cells()) {
      const [lat, lng] = cellToLatLng(entry.cell);
      if (!inBox(box, lat, lng)) continue;
      const level = trafficLevel(entry.source === 'learned' ? entry.factor : undefined);
      cells.push({ cell: entry.cell, lat, lng, hour: entry.bucket, factor: level.traffic_factor, source: entry.source, samples: entry.samples, reporters: entry.reporters, severity: level.traffic_severity, color: level.traffic_color });
      if (cells.length >= HEATMAP_MAX_CELLS) break;
    }
    return { cells, count: cells.length };
  }
}
