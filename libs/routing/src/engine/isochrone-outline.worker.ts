import { serveThread } from '../../../platform/src/threads/thread-entry.js';
import { outlineIsochrone, type IsochroneOutline } from './isochrone-outline.js';
import type { OutlineRequest } from './isochrone-outliner.js';

/**
 * Isochrone outline thread entry (isochrone-outliner.ts): one isochrone's
 * outline per job, off the api's event loop. It loads the thread entry alone,
 * not the platform's index (ADR 0042).
 */
serveThread<OutlineRequest, IsochroneOutline | null>(({ samples, count }) => ({ output: outlineIsochrone(samples, count) }));
