/**
 * Which imported places count as retail for GET /v2/analytics/retail-density,
 * by their OpenStreetMap tag (a place's `feature`, `key=value`). The first
 * matching rule decides, so a supermarket is not also a shop:
 *
 * | category | OSM tags |
 * |---|---|
 * | markets | `amenity=marketplace` |
 * | supermarkets | `shop=supermarket`, `shop=wholesale` |
 * | malls | `shop=mall`, `shop=department_store` |
 * | mobile_money_agents | `amenity=mobile_money_agent`, `shop=mobile_money`, `amenity=money_transfer`, `shop=money_transfer` |
 * | shops | every other `shop=*` |
 *
 * The place importers keep named objects only, so unnamed kiosks are not counted.
 */
export const RETAIL_CATEGORIES = ['shops', 'markets', 'supermarkets', 'malls', 'mobile_money_agents'] as const;
export type RetailCategory = (typeof RETAIL_CATEGORIES)[number];

const EXACT: Record<string, RetailCategory> = {
  'amenity=marketplace': 'markets',
  'shop=supermarket': 'supermarkets',
  'shop=wholesale': 'supermarkets',
  'shop=mall': 'malls',
  'shop=department_store': 'malls',
  'amenity=mobile_money_agent': 'mobile_money_agents',
  'shop=mobile_money': 'mobile_money_agents',
  'amenity=money_transfer': 'mobile_money_agents',
  'shop=money_transfer': 'mobile_money_agents',
};

export function retailCategory(feature: string): RetailCategory | null {
  const exact = EXACT[feature];
  if (exact) return exact;
  return feature.startsWith('shop=') ? 'shops' : null;
}
