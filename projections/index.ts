import type { Projection } from '../libs/platform/src/index.js';
import { accessLogProjection } from './access-log/access-log.projection.js';

/** Every read model the service keeps; the runner and `ops projections:rebuild` use this list. */
export const projections: Projection[] = [accessLogProjection as unknown as Projection];

export { accessLogProjection };
export type { AccessLogDoc } from './access-log/access-log.projection.js';
