import type { Isochrone, IsochroneRequest } from './public/isochrone.js';

/**
 * The area reachable within some minutes from a point, as GET /v2/isochrone answers it (issue 52, docs/adr/0066):
 * monitoring's isochrone fences are computed through it. Refuses a bad `minutes` or `mode` with 400 and a centre
 * far from any road with 422 NO_ROAD_NEARBY. Routing's IsochroneService implements it; inject ISOCHRONES.
 */
export interface Isochrones {
  isochrone(request: IsochroneRequest): Promise<Isochrone>;
}

export const ISOCHRONES = Symbol('Isochrones');
