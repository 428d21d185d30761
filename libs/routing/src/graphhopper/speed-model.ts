import { SPEED_TABLE, type Mode } from '../domain/profiles.js';

/** GraphHopper 11's `surface` values our profiles count as unpaved (domain/profiles.ts UNPAVED, as far as its enum names them). */
export const GH_UNPAVED_SURFACES = ['UNPAVED', 'COMPACTED', 'FINE_GRAVEL', 'GRAVEL', 'GROUND', 'DIRT', 'GRASS', 'SAND'] as const;

export interface SpeedStatement {
  if: string;
  multiply_by: string;
}

/**
 * The speed table's surface and condition factors (domain/profiles.ts
 * SPEED_TABLE, docs/adr/0035) as GraphHopper custom-model `speed` statements
 * for one mode: the server's profiles load them (`.ci/graphhopper/surfaces-<mode>.json`,
 * checked equal by the spec), so both engines slow down on the same gravel and
 * the same bad roads. Class speeds stay GraphHopper's own (its car.json is
 * free flow, ours is split into town and open road).
 */
export function graphHopperSpeedModel(mode: Mode): { speed: SpeedStatement[] } {
  const speed: SpeedStatement[] = [];
  const unpaved = SPEED_TABLE.unpaved[mode];
  if (unpaved !== 1) speed.push({ if: GH_UNPAVED_SURFACES.map((value) => `surface == ${value}`).join(' || '), multiply_by: String(unpaved) });
  // Equal factors share one statement, in the table's order.
  const byFactor = new Map<number, string[]>();
  for (const [smoothness, factors] of Object.entries(SPEED_TABLE.smoothness)) {
    if (factors[mode] === 1) continue;
    byFactor.set(factors[mode], [...(byFactor.get(factors[mode]) ?? []), `smoothness == ${smoothness.toUpperCase()}`]);
  }
  for (const [factor, conditions] of byFactor) speed.push({ if: conditions.join(' || '), multiply_by: String(factor) });
  return { speed };
}

/** The file each GraphHopper profile adds for its mode (.ci/graphhopper/config.yml). */
export const GH_SPEED_MODEL_FILES: Record<Mode, string> = {
  driving: 'surfaces-car.json',
  motor_scooter: 'surfaces-scooter.json',
  bicycle: 'surfaces-bike.json',
  walking: 'surfaces-foot.json',
};
