import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { Landmarks } from '../../../../places/src/index.js';
import { InvalidParamError, type AnswerOf } from '../../../../platform/src/index.js';
import { decodePolyline, PolylineError } from '../../domain/polyline.js';
import type { Mode } from '../../domain/profiles.js';
import { greatCircleM } from '../../../../platform/src/geo/geodesy.js';
import { RoutePlanner } from '../../public/route-planner.js';
import { landmarksAlong } from '../../routes/route-along.js';
import { parseLatLngParam } from '../point.query.js';
import { DEFAULT_ALONG_RADIUS_M, MAX_ALONG_LENGTH_M } from './route-along.request.js';
import type { RouteAlongAnswerSchema } from './route-along.answer.js';

/** GET /v2/route/along: the request's parameters as given (`from`/`to` or `polyline`, checked here). */
export interface AlongRequest {
  from?: string;
  to?: string;
  mode?: string;
  polyline?: string;
  precision?: number;
  radius_m?: number;
  limit?: number;
}

export type LandmarksAlong = AnswerOf<typeof RouteAlongAnswerSchema>;

export class RouteAlongQuery extends Query<LandmarksAlong> {
  constructor(readonly request: AlongRequest) {
    super();
  }
}

/** The landmarks within the radius of a route (given, or planned from `from` to `to`), in the order the traveller passes them. */
@QueryHandler(RouteAlongQuery)
export class RouteAlongHandler implements IQueryHandler<RouteAlongQuery> {
  constructor(
    private readonly planner: RoutePlanner,
    private readonly landmarks: Landmarks,
  ) {}

  async execute({ request }: RouteAlongQuery): Promise<LandmarksAlong> {
    let line: Array<[number, number]>;
    let mode: Mode | undefined;
    if (request.polyline !== undefined) {
      if (request.from !== undefined || request.to !== undefined) throw new InvalidParamError('give either polyline or from and to, not both', 'polyline');
      try {
        line = decodePolyline(request.polyline, request.precision ?? 5);
      } catch (error) {
        throw new InvalidParamError(`polyline is not an encoded polyline: ${error instanceof PolylineError ? error.message : 'malformed'}`, 'polyline');
      }
      if (line.length < 2) throw new InvalidParamError('polyline must hold at least two points', 'polyline');
      let length = 0;
      for (let i = 1; i < line.length; i++) length += greatCircleM(line[i - 1][1], line[i - 1][0], line[i][1], line[i][0]);
      if (length > MAX_ALONG_LENGTH_M) throw new InvalidParamError(`polyline is ${Math.round(length / 1000)} km long; landmarks are listed along at most ${MAX_ALONG_LENGTH_M / 1000} km`, 'polyline');
    } else {
      if (request.from === undefined) throw new InvalidParamError('from is required ("lat,lng"), or give polyline', 'from');
      if (request.to === undefined) throw new InvalidParamError('to is required ("lat,lng"), or give polyline', 'to');
      const plan = await this.planner.plan({ from: parseLatLngParam(request.from, 'from'), to: parseLatLngParam(request.to, 'to'), mode: request.mode, detour: false });
      line = plan.route.geometry.coordinates;
      mode = plan.mode;
    }
    const { items, length_m, truncated } = landmarksAlong(this.landmarks, line, request.radius_m ?? DEFAULT_ALONG_RADIUS_M, request.limit ?? 50);
    return { length_m, ...(mode ? { mode } : {}), items, truncated, attribution: ['© OpenStreetMap contributors'] };
  }
}
