import { Inject } from '@nestjs/common';
import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock, type AnswerOf } from '../../../../platform/src/index.js';
import { TrafficView } from '../../public/traffic-view.js';
import { inBox, type Box } from '../bbox.js';
import type { ListIncidentsAnswerSchema } from './list-incidents.answer.js';

export type IncidentsView = AnswerOf<typeof ListIncidentsAnswerSchema>;

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
