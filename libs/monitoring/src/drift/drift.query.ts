import { Query } from '@nestjs/cqrs';

// Asked by GET /v2/monitoring/drift and by POST /v2/monitoring/zone (which answers the drift after registering):
// handled in queries/get-drift.

export type DriftStatus = 'unmonitored' | 'in_zone' | 'drifting';

export interface DriftView {
  customer_id: string;
  /** `unmonitored`: no zone registered (or erased); `drifting`: out of the zone since `since`. */
  status: DriftStatus;
  home_hex: string | null;
  tolerance_hops: number | null;
  current_hex: string | null;
  distance_hops: number | null;
  since: string | null;
  last_ping_at: string | null;
}

/** GET /v2/monitoring/drift?customer_id=. */
export class GetDriftQuery extends Query<DriftView> {
  constructor(
    readonly accountId: string,
    readonly customerId: string,
  ) {
    super();
  }
}
