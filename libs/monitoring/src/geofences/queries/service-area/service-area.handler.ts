import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { hexCodeFromCell } from '../../../../../addressing/src/index.js';
import { LoopSlicer } from '../../../../../platform/src/index.js';
import { Polygon } from '../../domain/geometry.js';
import { checkServiceAreaEstimate, SERVICE_AREA_DEFAULT_RESOLUTION, SERVICE_AREA_POLYGON_LIMITS, type ServiceAreaContainment } from '../../domain/service-area.js';
import { ServiceAreaThread } from './service-area.thread.js';

export interface ServiceAreaAnswer {
  resolution: number;
  containment: ServiceAreaContainment;
  compact: boolean;
  cell_count: number;
  cells: string[];
  h3_cells: string[];
}

/** POST /v2/service-area. */
export class ServiceAreaQuery extends Query<ServiceAreaAnswer> {
  constructor(readonly area: { polygon: unknown; resolution?: number; containment?: ServiceAreaContainment; compact?: boolean }) {
    super();
  }
}

/** Pure computation: nothing is read or stored. The cells are computed on a worker thread, the hex codes here in slices. */
@QueryHandler(ServiceAreaQuery)
export class ServiceAreaHandler implements IQueryHandler<ServiceAreaQuery> {
  constructor(private readonly thread: ServiceAreaThread) {}

  async execute({ area: query }: ServiceAreaQuery): Promise<ServiceAreaAnswer> {
    const polygon = Polygon.parse(query.polygon, 'polygon', SERVICE_AREA_POLYGON_LIMITS);
    const resolution = query.resolution ?? SERVICE_AREA_DEFAULT_RESOLUTION;
    const containment = query.containment ?? 'overlapping';
    const compact = query.compact ?? false;
    checkServiceAreaEstimate(polygon, resolution, compact);
    const cells = await this.thread.cells(polygon.coverRings(), resolution, containment, compact);
    // Named on the loop about a millisecond at a time (docs/adr/0042, 0043).
    const slicer = new LoopSlicer();
    const codes = new Array<string>(cells.length);
    for (let i = 0; i < cells.length; i++) {
      if (slicer.due()) await slicer.yield();
      codes[i] = hexCodeFromCell(cells[i]);
    }
    return { resolution, containment, compact, cell_count: cells.length, cells: codes, h3_cells: cells };
  }
}
