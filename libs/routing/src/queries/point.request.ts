import { LatLng } from '../../../platform/src/index.js';

/** A point `{lat, lng}` in a JSON body (decisions.md, "Conventions"): the platform's, under the name the OpenAPI document gives it. */
export class PointRequest extends LatLng {}
