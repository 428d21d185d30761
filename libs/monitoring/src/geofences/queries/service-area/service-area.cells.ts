import { hexCodeFromCell } from '../../../../../addressing/src/thread-surface.js';
import type { AnswerOf } from '../../../../../platform/src/index.js';
import type { ServiceAreaAnswerSchema } from './service-area.answer.js';
import { coverCells, ServiceAreaTooLargeError, type ServiceAreaContainment } from '../../domain/service-area.js';

/**
 * A service area's answer, the job of its thread (service-area.thread.ts):
 * the domain and addressing's thread surface alone, so the thread loads no
 * platform and no context index.
 */
export interface CellsRequest {
  rings: number[][][];
  resolution: number;
  containment: ServiceAreaContainment;
  compact: boolean;
}

/** What POST /v2/service-area answers: the answer schema's type (a type only, so the thread loads no platform for it). */
export type ServiceAreaAnswer = AnswerOf<typeof ServiceAreaAnswerSchema>;

/**
 * The whole envelope as UTF-8 bytes (its buffer is handed over to the event
 * loop, not copied), or the counts of an area too large. Cells, hex codes and
 * the text are all made here: the loop only writes the bytes (docs/adr/0044).
 */
export type CellsOutcome = { body: Uint8Array } | { tooLarge: ServiceAreaTooLargeError['counts'] };

/** The answer's data: the cells and, in the same order, their hex codes. */
export function serviceAreaAnswer({ rings, resolution, containment, compact }: CellsRequest): ServiceAreaAnswer {
  const cells = coverCells(rings, resolution, containment, compact);
  return { resolution, containment, compact, cell_count: cells.length, cells: cells.map(hexCodeFromCell), h3_cells: cells };
}

/** What the thread runs (service-area.worker.ts), and the same on the event loop without a thread. */
export function cellsOutcome(request: CellsRequest): CellsOutcome {
  try {
    return { body: new TextEncoder().encode(JSON.stringify({ success: true, data: serviceAreaAnswer(request) })) };
  } catch (error) {
    if (error instanceof ServiceAreaTooLargeError) return { tooLarge: error.counts };
    throw error;
  }
}
