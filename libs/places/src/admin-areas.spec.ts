import { readFileSync } from 'node:fs';
import { AdminAreas, boundaryFromFeature, polygonContains, type Boundary } from './domain/admin-areas.js';

const fixture = (name: string) => JSON.parse(readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8')) as { features: unknown[] };
const parse = (name: string) => fixture(name).features.map(boundaryFromFeature);

describe('boundaryFromFeature', () => {
  it('reads OCHA level-1 and level-2 properties and skips what is not an admin polygon', () => {
    const regions = parse('boundaries-regions.geojson');
    expect(regions.map((b) => b && { level: b.level, name: b.name, pcode: b.pcode })).toEqual([
      { level: 1, name: 'Greater Accra', pcode: 'GH07' },
      { level: 1, name: 'Ashanti', pcode: 'GH02' },
      null, // country outline (ADM0 only)
      null, // a point
    ]);
    const [accra] = parse('boundaries-districts.geojson') as Boundary[];
    expect(accra).toMatchObject({ level: 2, name: 'Accra Metropolis', pcode: 'GH0701', parent_name: 'Greater Accra', parent_pcode: 'GH07', bbox: [-0.3, 5.5, -0.1, 5.65] });
    expect(accra.polygons[0]).toHaveLength(2); // outer ring and hole
  });

  it('maps OSM admin_level 4 and 6', () => {
    const square = { type: 'Polygon', coordinates: [[[0, 0], [1, 0], [1, 1], [0, 1], [0, 0]]] };
    expect(boundaryFromFeature({ type: 'Feature', properties: { name: 'Volta', admin_level: '4' }, geometry: square })).toMatchObject({ level: 1, name: 'Volta' });
    expect(boundaryFromFeature({ type: 'Feature', properties: { name: 'Ho', admin_level: 6 }, geometry: square })).toMatchObject({ level: 2, name: 'Ho' });
    expect(boundaryFromFeature({ type: 'Feature', properties: { name: 'Ghana', admin_level: '2' }, geometry: square })).toBeNull();
  });
});

describe('point in polygon', () => {
  it('excludes holes', () => {
    const outer = [0, 0, 10, 0, 10, 10, 0, 10, 0, 0];
    const hole = [4, 4, 6, 4, 6, 6, 4, 6, 4, 4];
    expect(polygonContains([outer, hole], 2, 2)).toBe(true);
    expect(polygonContains([outer, hole], 5, 5)).toBe(false);
    expect(polygonContains([outer, hole], 11, 5)).toBe(false);
  });
});

describe('AdminAreas', () => {
  const areas = new AdminAreas([...parse('boundaries-regions.geojson'), ...parse('boundaries-districts.geojson')].filter((b): b is Boundary => b !== null));

  it('names region and district of a point', () => {
    expect(areas.locate(5.55602, -0.1969)).toEqual({ region: 'Greater Accra', district: 'Accra Metropolis' });
    expect(areas.locate(5.6833, -0.1667)).toEqual({ region: 'Greater Accra', district: 'La-Nkwantanang-Madina' });
    // the second polygon of a multipolygon district
    expect(areas.locate(7.05, -0.95)).toEqual({ region: 'Ashanti', district: 'Kumasi Metropolitan' });
  });

  it('leaves the district out inside a hole and both outside every boundary', () => {
    expect(areas.locate(5.586, -0.186)).toEqual({ region: 'Greater Accra', district: null });
    expect(areas.locate(9.96, -1.2)).toEqual({ region: null, district: null });
  });

  it("falls back to the district's own region name without level-1 boundaries", () => {
    const districtsOnly = new AdminAreas(parse('boundaries-districts.geojson').filter((b): b is Boundary => b !== null));
    expect(districtsOnly.locate(6.68848, -1.62443)).toEqual({ region: 'Ashanti', district: 'Kumasi Metropolitan' });
  });
});
