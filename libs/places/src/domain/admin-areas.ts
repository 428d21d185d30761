/**
 * Administrative boundaries (the boundaries dataset) and the point-in-polygon
 * lookup the place importers use to give each place its region and district.
 *
 * Levels follow OCHA's common operational datasets (`ADM1_*` = level 1, Ghana's
 * regions; `ADM2_*` = level 2, its districts). A GeoJSON with plain `name` and
 * OSM `admin_level` maps 4 → 1 and 6 → 2, OpenStreetMap's scheme for Ghana.
 */
export interface Boundary {
  level: 1 | 2;
  name: string;
  pcode: string | null;
  /** The enclosing level-1 area as the source names it, when it does (OCHA district files do). */
  parent_name: string | null;
  parent_pcode: string | null;
  /** [west, south, east, north] */
  bbox: [number, number, number, number];
  /** Polygons → rings → flat [lng, lat, lng, lat, …]; the first ring is the outer one, the rest are holes. */
  polygons: number[][][];
}

export interface AdminNames {
  region: string | null;
  district: string | null;
}

type Json = Record<string, unknown>;

/** A boundary from one GeoJSON feature, or null when the feature is not an admin area of level 1 or 2. */
export function boundaryFromFeature(feature: unknown): Boundary | null {
  if (!isObject(feature) || !isObject(feature.geometry)) return null;
  const properties = isObject(feature.properties) ? feature.properties : {};
  const described = describe(properties);
  if (!described) return null;
  const polygons = polygonsOf(feature.geometry);
  if (polygons.length === 0) return null;
  return { ...described, bbox: boundingBox(polygons), polygons };
}

function describe(properties: Json): Omit<Boundary, 'bbox' | 'polygons'> | null {
  const text = (key: string) => (typeof properties[key] === 'string' && (properties[key] as string).trim() !== '' ? (properties[key] as string).trim() : null);
  const adm2 = text('ADM2_EN') ?? text('ADM2_NAME');
  if (adm2) return { level: 2, name: adm2, pcode: text('ADM2_PCODE'), parent_name: text('ADM1_EN') ?? text('ADM1_NAME'), parent_pcode: text('ADM1_PCODE') };
  const adm1 = text('ADM1_EN') ?? text('ADM1_NAME');
  if (adm1) return { level: 1, name: adm1, pcode: text('ADM1_PCODE'), parent_name: null, parent_pcode: null };
  const name = text('name');
  const osmLevel = Number(properties.admin_level);
  if (name && (osmLevel === 4 || osmLevel === 6)) return { level: osmLevel === 4 ? 1 : 2, name, pcode: null, parent_name: null, parent_pcode: null };
  return null;
}

function polygonsOf(geometry: Json): number[][][] {
  const coordinates = geometry.coordinates;
  if (!Array.isArray(coordinates)) return [];
  const polygons = geometry.type === 'Polygon' ? [coordinates] : geometry.type === 'MultiPolygon' ? coordinates : [];
  const result: number[][][] = [];
  for (const polygon of polygons) {
    if (!Array.isArray(polygon)) continue;
    const rings: number[][] = [];
    for (const ring of polygon) {
      if (!Array.isArray(ring)) continue;
      const flat: number[] = [];
      for (const position of ring) {
        if (Array.isArray(position) && Number.isFinite(position[0]) && Number.isFinite(position[1])) {
          // Six decimals are 0.1 m: finer than any boundary survey, and half the stored size.
          flat.push(Math.round(position[0] * 1e6) / 1e6, Math.round(position[1] * 1e6) / 1e6);
        }
      }
      if (flat.length >= 8) rings.push(flat);
    }
    if (rings.length > 0) result.push(rings);
  }
  return result;
}

function boundingBox(polygons: number[][][]): [number, number, number, number] {
  let west = Infinity;
  let south = Infinity;
  let east = -Infinity;
  let north = -Infinity;
  for (const polygon of polygons) {
    const outer = polygon[0];
    for (let i = 0; i < outer.length; i += 2) {
      west = Math.min(west, outer[i]);
      east = Math.max(east, outer[i]);
      south = Math.min(south, outer[i + 1]);
      north = Math.max(north, outer[i + 1]);
    }
  }
  return [west, south, east, north];
}

/** Even-odd ray casting over every ring, so holes are excluded. */
export function polygonContains(rings: number[][], lng: number, lat: number): boolean {
  let inside = false;
  for (const ring of rings) {
    for (let i = 0, j = ring.length - 2; i < ring.length; j = i, i += 2) {
      const xi = ring[i];
      const yi = ring[i + 1];
      const xj = ring[j];
      const yj = ring[j + 1];
      if (yi > lat !== yj > lat && lng < ((xj - xi) * (lat - yi)) / (yj - yi) + xi) inside = !inside;
    }
  }
  return inside;
}

const CELL_DEGREES = 0.5;

/** The boundaries of one dataset, with a coarse grid so a lookup tests only the few whose box covers the point. */
export class AdminAreas {
  private readonly grid = new Map<string, number[]>();

  constructor(private readonly boundaries: readonly Boundary[]) {
    boundaries.forEach((boundary, index) => {
      const [west, south, east, north] = boundary.bbox;
      for (let x = Math.floor(west / CELL_DEGREES); x <= Math.floor(east / CELL_DEGREES); x++) {
        for (let y = Math.floor(south / CELL_DEGREES); y <= Math.floor(north / CELL_DEGREES); y++) {
          const key = `${x}:${y}`;
          const cell = this.grid.get(key);
          if (cell) cell.push(index);
          else this.grid.set(key, [index]);
        }
      }
    });
  }

  get size(): number {
    return this.boundaries.length;
  }

  /** Region and district of a point; a district's own parent name fills the region when no level-1 area was imported. */
  locate(lat: number, lng: number): AdminNames {
    let region: string | null = null;
    let district: string | null = null;
    let parentOfDistrict: string | null = null;
    const cell = this.grid.get(`${Math.floor(lng / CELL_DEGREES)}:${Math.floor(lat / CELL_DEGREES)}`) ?? [];
    for (const index of cell) {
      const boundary = this.boundaries[index];
      if ((boundary.level === 1 && region) || (boundary.level === 2 && district)) continue;
      const [west, south, east, north] = boundary.bbox;
      if (lng < west || lng > east || lat < south || lat > north) continue;
      if (!boundary.polygons.some((rings) => polygonContains(rings, lng, lat))) continue;
      if (boundary.level === 1) region = boundary.name;
      else {
        district = boundary.name;
        parentOfDistrict = boundary.parent_name;
      }
    }
    return { region: region ?? parentOfDistrict, district };
  }
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
