import { hexCodeFromCell } from '../../../../../addressing/src/index.js';
import { Polygon } from '../../domain/geometry.js';
import { SERVICE_AREA_DEFAULT_RESOLUTION, SERVICE_AREA_POLYGON_LIMITS, serviceAreaCells, type ServiceAreaContainment } from '../../domain/service-area.js';

/** POST /v2/service-area: pure computation, nothing is read or stored. */
export function serviceArea(query: { polygon: unknown; resolution?: number; containment?: ServiceAreaContainment; compact?: boolean }) {
  const polygon = Polygon.parse(query.polygon, 'polygon', SERVICE_AREA_POLYGON_LIMITS);
  const area = serviceAreaCells(polygon, query.resolution ?? SERVICE_AREA_DEFAULT_RESOLUTION, query.containment ?? 'overlapping', query.compact ?? false);
  return {
    resolution: area.resolution,
    containment: area.containment,
    compact: area.compact,
    cell_count: area.cells.length,
    cells: area.cells.map((cell) => hexCodeFromCell(cell)),
    h3_cells: area.cells,
  };
}
