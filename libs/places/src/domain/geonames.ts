import { importance } from './importance.js';
import { normalise } from './normalise.js';
import { cleanAltNames, MAX_NAME_LENGTH, type Place } from './place.js';

/**
 * One row of a GeoNames dump (geonames.org/export, "geoname" table: 19
 * tab-separated columns) as a place; admin names are filled in by the importer.
 */
const KINDS: Record<string, string> = {
  'P.PPLC': 'city',
  'P.PPLA': 'city',
  'P.PPLX': 'suburb',
  'P.PPLL': 'locality',
  'P.PPLH': 'historical_place',
  'P.PPLQ': 'abandoned_place',
  'A.PCLI': 'country',
  'A.ADM1': 'region',
  'A.ADM2': 'district',
  'A.ADM3': 'subdistrict',
  'H.STM': 'stream',
  'H.STMI': 'stream',
  'H.LK': 'lake',
  'H.LGN': 'lagoon',
  'H.RSV': 'reservoir',
  'H.BAY': 'bay',
  'H.WLL': 'well',
  'T.HLL': 'hill',
  'T.HLLS': 'hills',
  'T.MT': 'mountain',
  'T.CAPE': 'cape',
  'T.ISL': 'island',
  'S.SCH': 'school',
  'S.SCHC': 'college',
  'S.UNIV': 'university',
  'S.HSP': 'hospital',
  'S.AIRP': 'airport',
  'S.AIRF': 'airfield',
  'S.CMP': 'camp',
  'S.FRM': 'farm',
  'S.CH': 'church',
  'S.MSQE': 'mosque',
  'S.MKT': 'market',
  'S.HTL': 'hotel',
  'S.STDM': 'stadium',
  'S.PO': 'post_office',
  'S.RSTN': 'railway_station',
  'S.CSTL': 'castle',
  'L.PRK': 'park',
  'L.RESF': 'forest_reserve',
  'L.RESN': 'nature_reserve',
  'L.PRT': 'port',
  'R.RD': 'road',
  'V.FRST': 'forest',
};
const CLASS_KINDS: Record<string, string> = { P: 'village', A: 'admin_area', H: 'water', T: 'landform', S: 'site', L: 'area', R: 'road', V: 'vegetation', U: 'undersea' };

const CLASS_SCORES: Record<string, number> = {
  'P.PPLC': 1,
  'P.PPLA': 0.8,
  'A.PCLI': 0.8,
  'A.ADM1': 0.75,
  'P.PPLA2': 0.55,
  'A.ADM2': 0.5,
  'S.AIRP': 0.5,
  'P.PPLA3': 0.4,
  'S.UNIV': 0.35,
  'S.HSP': 0.3,
  'S.MKT': 0.3,
  'L.PRK': 0.3,
};
const CLASS_DEFAULT_SCORES: Record<string, number> = { P: 0.2, A: 0.3, S: 0.12, L: 0.12, T: 0.1, H: 0.08, R: 0.08, V: 0.08, U: 0.05 };

export function placeFromGeoNames(columns: string[]): Place | null {
  if (columns.length < 15) return null;
  const [id, name, asciiName, alternates, latText, lngText, featureClass, featureCode] = columns;
  const lat = Number(latText);
  const lng = Number(lngText);
  if (!/^\d+$/.test(id) || name.trim() === '' || latText === '' || lngText === '' || !Number.isFinite(lat) || !Number.isFinite(lng)) return null;
  const populationValue = Number(columns[14]);
  const population = Number.isInteger(populationValue) && populationValue > 0 ? populationValue : null;
  const feature = `${featureClass}.${featureCode}`;
  const displayName = name.trim().slice(0, MAX_NAME_LENGTH);
  return {
    id: `geonames:${id}`,
    source: 'geonames',
    name: displayName,
    alt_names: cleanAltNames(displayName, [asciiName, ...alternates.split(',')], normalise),
    kind: kindOf(feature, featureClass, population),
    feature,
    lat,
    lng,
    population,
    importance: importance(population, CLASS_SCORES[feature] ?? CLASS_DEFAULT_SCORES[featureClass] ?? 0.05),
    region: null,
    district: null,
    phone: null,
    website: null,
    opening_hours: null,
  };
}

function kindOf(feature: string, featureClass: string, population: number | null): string {
  if (feature.startsWith('P.PPL') && !KINDS[feature]) {
    if ((population ?? 0) >= 100_000) return 'city';
    if ((population ?? 0) >= 5_000 || feature === 'P.PPLA2' || feature === 'P.PPLA3') return 'town';
    return 'village';
  }
  return KINDS[feature] ?? CLASS_KINDS[featureClass] ?? 'place';
}
