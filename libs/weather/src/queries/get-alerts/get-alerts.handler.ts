import { Inject } from '@nestjs/common';
import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { CLOCK, LEGACY_BBOX_WARNING, type Clock, type AnswerOf } from '../../../../platform/src/index.js';
import { FeedPolls } from '../../feeds/feed-polls.js';
import { alertFeature } from '../../alerts/alert-book.js';
import { WeatherAlerts } from '../../public/alert-log.js';
import { CapAlertView } from '../../public/alert-view.js';
import { parseBox } from '../../forecast/precipitation-forecast.js';
import type { GetAlertsAnswerSchema } from './get-alerts.answer.js';

export type AlertCollection = AnswerOf<typeof GetAlertsAnswerSchema>;

const NOT_CONFIGURED_NOTE =
  'No CAP alert feed is configured on this deployment (WEATHER_CAP_FEEDS): an empty list does not mean that no alert is in force. Only alerts imported with ops weather:import are listed.';

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
    private readonly polls: FeedPolls,
  ) {}

  async execute({ filter }: GetAlertsQuery): Promise<AlertCollection> {
    const at = filter.at !== undefined ? new Date(filter.at) : this.clock.now();
    const area = filter.bbox !== undefined ? parseBox(filter.bbox, undefined, undefined) : null;
    const box = area?.box ?? null;
    if (!box) parseBox(undefined, filter.lat, filter.lng); // both or neither
    const point = filter.lat !== undefined && filter.lng !== undefined ? ([filter.lng, filter.lat] as [number, number]) : undefined;
    // What another process (ops weather:import) recorded before this request is in the answer.
    await this.view.catchUp();
    const alerts = this.alerts.active(at, box ? { bbox: box } : point ? { point } : {});
    // The worker polls; each poll's outcome is in the read store.
    const feeds = await this.polls.list();
    return {
      type: 'FeatureCollection' as const,
      features: alerts.map(alertFeature),
      configured: this.polls.configured,
      feeds,
      imported: this.view.loaded,
      ...(feeds.length === 0 ? { note: NOT_CONFIGURED_NOTE } : {}),
      ...(area?.legacy ? { warnings: [LEGACY_BBOX_WARNING] } : {}),
    };
  }
}
