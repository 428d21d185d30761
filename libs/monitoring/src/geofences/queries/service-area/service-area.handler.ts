import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { Polygon } from '../../domain/geometry.js';
import { checkServiceAreaEstimate, SERVICE_AREA_DEFAULT_RESOLUTION, SERVICE_AREA_POLYGON_LIMITS, type ServiceAreaContainment } from '../../domain/service-area.js';
import { ServiceAreaThread } from './service-area.thread.js';

/** POST /v2/service-area. */
export class ServiceAreaQuery extends Query<Buffer> {
  constructor(readonly area: { polygon: unknown; resolution?: number; containment?: ServiceAreaContainment; compact?: boolean }) {
    super();
  }
}

/** Pure computation: nothing is read or stored. The answer (cells, hex codes, the envelope's bytes) is made on a worker thread. */
@QueryHandler(ServiceAreaQuery)
export class ServiceAreaHandler implements IQueryHandler<ServiceAreaQuery> {
  constructor(private readonly thread: ServiceAreaThread) {}

  async execute({ area: query }: ServiceAreaQuery): Promise<Buffer> {
    const polygon = Polygon.parse(query.polygon, 'polygon', SERVICE_AREA_POLYGON_LIMITS);
    const resolution = query.resolution ?? SERVICE_AREA_DEFAULT_RESOLUTION;
    const containment = query.containment ?? 'overlapping';
    const compact = query.compact ?? false;
    checkServiceAreaEstimate(polygon, resolution, compact);
    return this.thread.answer(polygon.coverRings(), resolution, containment, compact);
  }
}
