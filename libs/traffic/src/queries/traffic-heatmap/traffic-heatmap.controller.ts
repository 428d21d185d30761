import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import { cellToLatLng } from 'h3-js';
import { trafficLevel } from '../../../../routing/src/index.js';
import { TrafficView } from '../../traffic-view.js';
import { inBox, parseBox } from '../list-incidents/list-incidents.controller.js';

/** At most this many cells in one answer. */
export const HEATMAP_MAX_CELLS = 5000;

/** interface.md: GET /v2/analytics/traffic-heatmap, Key: the hex cells with a learned factor of their own. */
@ApiTags('analytics')
@Controller('v2/analytics/traffic-heatmap')
export class TrafficHeatmapController {
  constructor(private readonly view: TrafficView) {}

  @Get()
  @ApiOperation({
    summary: 'Learned congestion per hex cell',
    description: 'H3 res-8 cells that have their own learned factor, per hour of day: `{cell, lat, lng, hour, factor, samples, severity, color}`, inside `bbox` (north,south,east,west, at most 2° each way).',
  })
  @ApiQuery({ name: 'bbox', required: true })
  @ApiResponse({ status: 200, description: '`{cells: [...], count}`' })
  @ApiResponse({ status: 400, description: 'INVALID_PARAM (`bbox`)' })
  heatmap(@Query('bbox') bbox?: string) {
    const box = parseBox(bbox, 2);
    const cells = [];
    for (const entry of this.view.learned.cells()) {
      const [lat, lng] = cellToLatLng(entry.cell);
      if (!inBox(box, lat, lng)) continue;
      const level = trafficLevel(entry.factor);
      cells.push({ cell: entry.cell, lat, lng, hour: entry.bucket, factor: level.traffic_factor, samples: entry.samples, severity: level.traffic_severity, color: level.traffic_color });
      if (cells.length >= HEATMAP_MAX_CELLS) break;
    }
    return { cells, count: cells.length };
  }
}
