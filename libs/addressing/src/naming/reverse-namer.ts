import { Inject, Injectable, Optional } from '@nestjs/common';
import { reverseAddress, ROAD_RADIUS_M, type ReverseAddress } from '../domain/reverse-address.js';
import { REVERSE_PLACES, REVERSE_ROADS, type ReversePlaces, type ReverseRoads } from './reverse-names.port.js';

/**
 * Names a point for GET /v2/reverse and the point items of POST
 * /v2/hexcode/bulk (issue 28, item 7): the places port's region, district,
 * locality and landmark, and the roads port's nearest named road. Without the
 * places port (the codec-only module the hexcode benchmark mounts) there is
 * nothing to name with: null.
 */
@Injectable()
export class ReverseNamer {
  constructor(
    @Optional() @Inject(REVERSE_PLACES) private readonly places: ReversePlaces | null,
    @Optional() @Inject(REVERSE_ROADS) private readonly roads: ReverseRoads | null,
  ) {}

  get enabled(): boolean {
    return Boolean(this.places);
  }

  /** The point's address; UNNAMED (one shared, frozen object) where no loaded dataset names it at all. */
  name(lat: number, lng: number): ReverseAddress | null {
    if (!this.places) return null;
    const places = this.places.namesAt(lat, lng);
    const road = this.roads?.nearestNamedRoad(lat, lng, ROAD_RADIUS_M) ?? null;
    return places === null && road === null ? UNNAMED : reverseAddress(places, road);
  }
}

/**
 * The address of a point before any place dataset is loaded and with no named
 * road near: every part null, no dataset. One object, so a bulk answer
 * serialises it once rather than once per point (bulk-hexcode.handler.ts).
 */
export const UNNAMED: ReverseAddress = Object.freeze({ ...reverseAddress(null, null), datasets: Object.freeze([]) as unknown as ReverseAddress['datasets'] });
