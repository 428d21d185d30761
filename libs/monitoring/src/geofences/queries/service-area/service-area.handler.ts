import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { hexCodeFromCell } from '../../../../../addressing/src/index.js';
import { Polygon } from '../../domain/geometry.js';
import { SERVICE_AREA_DEFAULT_RESOLUTION, SERVICE_AREA_POLYGON_LIMITS, serviceAreaCells, type ServiceAreaContainment } from '../../domain/service-area.js';

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

/** Pure computation: nothing is read or stored. */
@QueryHandler(ServiceAreaQuery)
export class ServiceAreaHandler implements IQueryHandler<ServiceAreaQuery> {
  async execute({ area }: ServiceAreaQuery): Promise<ServiceAreaAnswer> {
    return serviceArea(area);
  }
}

function serviceArea(query: ServiceAreaQuery['area']): ServiceAreaAnswer {
  const polygon = Polygon.parse(query.polygon, 'polygon', SERVICE_AREA_POLYGON_LIMITS);
  const area = serviceAreaCells(polygon, query.resolution ?? SERVICE_AREA_DEFAULT_RESOLUTION, query.containment ?? 'overlapping', query.compact ?? false);
  return {
    resolution: area.resolution,
    containment: area.containment,
    compact: area.compact,
    cell_count: area.cells.length,
    cells: area.cells.map((cell) => hexCodeFromCell(cell)),
    h3_cells: area.cells,
  };
}
