import { coverCells, ServiceAreaTooLargeError, type ServiceAreaContainment } from '../../domain/service-area.js';

/** A service area's cells, the job of its thread (service-area.thread.ts); the domain alone, so the thread loads no platform. */
export interface CellsRequest {
  rings: number[][][];
  resolution: number;
  containment: ServiceAreaContainment;
  compact: boolean;
}

/** The cells as one string (cheaper to copy between threads than 10,000), or the counts of an area too large. */
export type CellsOutcome = { cells: string } | { tooLarge: ServiceAreaTooLargeError['counts'] };

/** What the thread runs (service-area.worker.ts), and the same on the event loop without a thread. */
export function cellsOutcome({ rings, resolution, containment, compact }: CellsRequest): CellsOutcome {
  try {
    return { cells: coverCells(rings, resolution, containment, compact).join(',') };
  } catch (error) {
    if (error instanceof ServiceAreaTooLargeError) return { tooLarge: error.counts };
    throw error;
  }
}
