import { Inject, Optional } from '@nestjs/common';
import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { DEFAULT_FORECAST_BOX, parseBox, precipitationCloud } from '../../forecast/precipitation-forecast.js';
import { LEGACY_BBOX_WARNING, type AnswerOf } from '../../../../platform/src/index.js';
import { PRECIPITATION_PROVIDER, type PrecipitationProvider } from '../../forecast/precipitation-provider.port.js';
import type { GetPrecipitationForecastAnswerSchema } from './get-precipitation-forecast.answer.js';

export type PrecipitationCloud = AnswerOf<typeof GetPrecipitationForecastAnswerSchema>;

/** GET /v2/precipitation-forecast[?bbox | ?lat&lng]. */
export class GetPrecipitationForecastQuery extends Query<PrecipitationCloud> {
  constructor(
    readonly bbox?: string,
    readonly lat?: number,
    readonly lng?: number,
  ) {
    super();
  }
}

/** The 5×5 point cloud over the box (Greater Accra by default) from the provider; 503 FORECAST_NOT_CONFIGURED without one, never invented numbers. */
@QueryHandler(GetPrecipitationForecastQuery)
export class GetPrecipitationForecastHandler implements IQueryHandler<GetPrecipitationForecastQuery> {
  constructor(@Optional() @Inject(PRECIPITATION_PROVIDER) private readonly provider: PrecipitationProvider | null) {}

  async execute(query: GetPrecipitationForecastQuery): Promise<PrecipitationCloud> {
    const area = parseBox(query.bbox, query.lat, query.lng);
    const cloud = await precipitationCloud(this.provider ?? null, area?.box ?? DEFAULT_FORECAST_BOX);
    return area?.legacy ? { ...cloud, warnings: [LEGACY_BBOX_WARNING] } : cloud;
  }
}
