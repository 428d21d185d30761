import { Inject } from '@nestjs/common';
import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock } from '../../../../platform/src/index.js';
import type { Incident } from '../../domain/hazard.js';
import { TrafficView } from '../../public/traffic-view.js';
import { inBox, type Box } from '../bbox.js';

export interface IncidentsView {
  incidents: Array<Incident & { blocks_routes: boolean }>;
  count: number;
}

/** GET /v2/route/incidents[?bbox=]. */
export class ListIncidentsQuery extends Query<IncidentsView> {
  constructor(readonly box: Box | null) {
    super();
  }
}

/** The incidents live now on the board, each marked when routing avoids it. */
@QueryHandler(ListIncidentsQuery)
export class ListIncidentsHandler implements IQueryHandler<ListIncidentsQuery> {
  constructor(
    private readonly view: TrafficView,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ box }: ListIncidentsQuery): Promise<IncidentsView> {
    const now = this.clock.now();
    const blocking = new Set(this.view.hazards(now).filter((hazard) => hazard.blocks).map((hazard) => hazard.id));
    const incidents = this.view.board
      .active(now)
      .filter((incident) => !box || inBox(box, incident.lat, incident.lng))
      .map((incident) => ({ ...incident, blocks_routes: blocking.has(incident.id) }));
    return { incidents, count: incidents.length };
  }
}
