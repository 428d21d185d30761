import { Inject } from '@nestjs/common';
import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock } from '../../../../platform/src/index.js';
import { alertFeature } from '../../alerts/alert-book.js';
import { WeatherAlerts } from '../../public/alert-log.js';
import { CapAlertView } from '../../public/alert-view.js';
import { parseBox } from '../../forecast/precipitation-forecast.js';

export interface AlertCollection {
  type: 'FeatureCollection';
  features: Array<ReturnType<typeof alertFeature>>;
}

/** GET /v2/weather/alerts[?lat&lng | ?bbox][&at]. */
export class GetAlertsQuery extends Query<AlertCollection> {
  constructor(readonly filter: { lat?: number; lng?: number; bbox?: string; at?: string }) {
    super();
  }
}

/** The alerts in force at `at` (now by default), those whose area holds the point or meets the box, newest first. */
@QueryHandler(GetAlertsQuery)
export class GetAlertsHandler implements IQueryHandler<GetAlertsQuery> {
  constructor(
    private readonly alerts: WeatherAlerts,
    private readonly view: CapAlertView,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ filter }: GetAlertsQuery): Promise<AlertCollection> {
    const at = filter.at !== undefined ? new Date(filter.at) : this.clock.now();
    const box = filter.bbox !== undefined ? parseBox(filter.bbox, undefined, undefined) : null;
    if (!box) parseBox(undefined, filter.lat, filter.lng); // both or neither
    const point = filter.lat !== undefined && filter.lng !== undefined ? ([filter.lng, filter.lat] as [number, number]) : undefined;
    // What another process (ops weather:import) recorded before this request is in the answer.
    await this.view.catchUp();
    const alerts = this.alerts.active(at, box ? { bbox: box } : point ? { point } : {});
    return { type: 'FeatureCollection' as const, features: alerts.map(alertFeature) };
  }
}
