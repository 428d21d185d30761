import { Inject } from '@nestjs/common';
import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { cellToBoundary, latLngToCell } from 'h3-js';
import { hexCodeFromCell } from '../../../../addressing/src/index.js';
import { Gazetteer } from '../../../../places/src/index.js';
import { RETAIL_CATEGORIES, retailCategory, type RetailCategory } from '../../domain/retail.js';

type Counts = Record<RetailCategory, number>;
const zero = (): Counts => ({ shops: 0, markets: 0, supermarkets: 0, malls: 0, mobile_money_agents: 0 });

export interface RetailBox {
  north: number;
  south: number;
  east: number;
  west: number;
}

/** GET /v2/analytics/retail-density: a checked box (north > south, east > west, bounded) and an H3 resolution. */
export class RetailDensityQuery extends Query<ReturnType<RetailDensityHandler['density']>> {
  constructor(
    readonly box: RetailBox,
    readonly resolution: number,
  ) {
    super();
  }
}

/** Counts the retail places of the imported place datasets per hex of the box (domain/retail.ts names the categories). */
@QueryHandler(RetailDensityQuery)
export class RetailDensityHandler implements IQueryHandler<RetailDensityQuery> {
  constructor(@Inject(Gazetteer) private readonly gazetteer: Gazetteer) {}

  async execute({ box, resolution }: RetailDensityQuery) {
    return this.density(box, resolution);
  }

  density(box: RetailBox, resolution: number) {
    const perCell = new Map<string, Counts>();
    const totals = zero();
    const datasets = this.gazetteer.forEachIn(box, (place) => {
      const category = retailCategory(place.feature);
      if (!category) return;
      const cell = latLngToCell(place.lat, place.lng, resolution);
      let counts = perCell.get(cell);
      if (!counts) perCell.set(cell, (counts = zero()));
      counts[category]++;
      totals[category]++;
    });
    const features = [...perCell].map(([cell, counts]) => ({
      type: 'Feature' as const,
      geometry: { type: 'Polygon' as const, coordinates: [cellToBoundary(cell, true)] },
      properties: { hex_code: hexCodeFromCell(cell), h3_cell: cell, ...counts, total: RETAIL_CATEGORIES.reduce((sum, category) => sum + counts[category], 0) },
    }));
    features.sort((a, b) => b.properties.total - a.properties.total || (a.properties.h3_cell < b.properties.h3_cell ? -1 : 1));
    return {
      type: 'FeatureCollection' as const,
      bbox: [box.west, box.south, box.east, box.north],
      resolution,
      totals,
      features,
      datasets: datasets.map(({ dataset, version, imported_at }) => ({ dataset, version, imported_at })),
      attribution: [...new Set(datasets.flatMap((dataset) => dataset.attribution))],
    };
  }
}
