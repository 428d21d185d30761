import { cellToParent, getResolution, latLngToCell } from 'h3-js';
import { Polygon } from './geometry.js';
import { SERVICE_AREA_MAX_CELLS, SERVICE_AREA_POLYGON_LIMITS, ServiceAreaTooLargeError, serviceAreaCells } from './service-area.js';

const square = (side: number) =>
  Polygon.parse({ type: 'Polygon', coordinates: [[[-0.2, 5.5], [-0.2 + side, 5.5], [-0.2 + side, 5.5 + side], [-0.2, 5.5 + side]]] }, 'polygon', SERVICE_AREA_POLYGON_LIMITS);

describe('serviceAreaCells', () => {
  it('covers every point of the polygon in overlapping mode', () => {
    const polygon = square(0.05);
    const cells = new Set(serviceAreaCells(polygon, 8, 'overlapping', false).cells);
    for (let i = 0; i <= 10; i++) {
      for (let j = 0; j <= 10; j++) expect(cells).toContain(latLngToCell(5.5 + (0.05 * i) / 10, -0.2 + (0.05 * j) / 10, 8));
    }
  });

  it('orders the modes full ⊂ center ⊂ overlapping and compacts without losing ground', () => {
    const polygon = square(0.05);
    const full = serviceAreaCells(polygon, 9, 'full', false).cells;
    const center = new Set(serviceAreaCells(polygon, 9, 'center', false).cells);
    const overlapping = new Set(serviceAreaCells(polygon, 9, 'overlapping', false).cells);
    expect(full.every((cell) => center.has(cell))).toBe(true);
    expect([...center].every((cell) => overlapping.has(cell))).toBe(true);
    const compacted = serviceAreaCells(polygon, 9, 'full', true).cells;
    expect(compacted.length).toBeLessThan(full.length);
    const ancestors = new Set(compacted);
    for (const cell of full) {
      expect([...Array(10).keys()].some((res) => ancestors.has(cellToParent(cell, res)))).toBe(true);
    }
    expect(compacted.some((cell) => getResolution(cell) < 9)).toBe(true);
  });

  it('refuses an area beyond the limits by its estimate, naming the resolution', () => {
    let error: unknown;
    try {
      serviceAreaCells(square(1), 12, 'overlapping', true);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ServiceAreaTooLargeError);
    expect((error as ServiceAreaTooLargeError).field).toBe('resolution');
    expect((error as ServiceAreaTooLargeError).message).not.toMatch(/compact/);
    expect(() => serviceAreaCells(square(0.3), 9, 'overlapping', false)).toThrow(new RegExp(`more than the ${SERVICE_AREA_MAX_CELLS}`));
  });
});
