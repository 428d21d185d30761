import { serveTask } from '../../../platform/src/threads/work-task.js';
import { outlineIsochrone, type IsochroneOutline } from './isochrone-outline.js';
import type { OutlineRequest } from './isochrone-outliner.js';

/**
 * Isochrone outline thread module (isochrone-outliner.ts): one isochrone's
 * outline per task, off the api's event loop. It loads the task wrapper
 * alone, not the platform's index (ADR 0042).
 */
export default serveTask<OutlineRequest, IsochroneOutline | null>(({ samples, count }) => ({ output: outlineIsochrone(samples, count) }));
