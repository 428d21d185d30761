/**
 * How a turn is classified and said (issue #15, "Route step"). `turn_class`
 * is a closed set, documented in the OpenAPI description and the README:
 *
 *   depart, arrive, waypoint, straight, slight_left, slight_right, left,
 *   right, sharp_left, sharp_right, uturn, roundabout_exit_<n> (n ≥ 1)
 *
 * by the turn angle (bearing after − bearing before, −180..180, positive to
 * the right): |a| < 20° straight, < 45° slight, < 120° normal, < 170° sharp,
 * else a U-turn.
 */
export type TurnClass =
  | 'depart' | 'arrive' | 'waypoint' | 'straight' | 'slight_left' | 'slight_right' | 'left' | 'right' | 'sharp_left' | 'sharp_right' | 'uturn' | `roundabout_exit_${number}`;

export const TURN_CLASSES_DOC = 'depart, arrive, waypoint, straight, slight_left, slight_right, left, right, sharp_left, sharp_right, uturn, roundabout_exit_<n>';

export function turnAngle(bearingBefore: number, bearingAfter: number): number {
  let angle = (bearingAfter - bearingBefore) % 360;
  if (angle > 180) angle -= 360;
  if (angle <= -180) angle += 360;
  return Math.round(angle);
}

export function turnClass(angle: number): TurnClass {
  const size = Math.abs(angle);
  const side = angle < 0 ? 'left' : 'right';
  if (size < 20) return 'straight';
  if (size < 45) return `slight_${side}`;
  if (size < 120) return side;
  if (size < 170) return `sharp_${side}`;
  return 'uturn';
}

const COMPASS = ['north', 'northeast', 'east', 'southeast', 'south', 'southwest', 'west', 'northwest'];
export function compass(bearing: number): string {
  return COMPASS[Math.round(bearing / 45) % 8];
}

export function ordinal(n: number): string {
  const suffix = n % 100 >= 11 && n % 100 <= 13 ? 'th' : ({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[n % 10] ?? 'th';
  return `${n}${suffix}`;
}

/** The verb phrase of a manoeuvre: "Turn left", "Bear right", "Make a U-turn", "Take the 2nd exit at the roundabout". */
export function verbOf(turn: TurnClass, bearingAfter: number): string {
  if (turn === 'depart') return `Head ${compass(bearingAfter)}`;
  if (turn === 'arrive') return 'Arrive at your destination';
  if (turn === 'waypoint') return 'Reach your stop';
  if (turn.startsWith('roundabout_exit_')) return `Take the ${ordinal(Number(turn.slice('roundabout_exit_'.length)))} exit at the roundabout`;
  switch (turn) {
    case 'straight':
      return 'Continue straight';
    case 'slight_left':
      return 'Bear left';
    case 'slight_right':
      return 'Bear right';
    case 'left':
      return 'Turn left';
    case 'right':
      return 'Turn right';
    case 'sharp_left':
      return 'Turn sharp left';
    case 'sharp_right':
      return 'Turn sharp right';
    case 'uturn':
      return 'Make a U-turn';
    default:
      return 'Continue';
  }
}

/** "500 metres", "1.2 kilometres": spoken distances, rounded as a navigator would. */
export function spokenDistance(metres: number): string {
  if (metres < 1000) {
    const rounded = metres < 100 ? Math.max(10, Math.round(metres / 10) * 10) : Math.round(metres / 50) * 50;
    return `${rounded} metres`;
  }
  const km = Math.round(metres / 100) / 10;
  return `${km} kilometre${km === 1 ? '' : 's'}`;
}

/**
 * OSRM's lane shape (`{indications, valid}`) from an OSM `turn:lanes` value
 * (`left|through;right|right`): a lane is valid when one of its indications
 * fits the manoeuvre taken. Null when the value says nothing usable.
 */
export function lanesFor(turnLanes: string | null, turn: TurnClass): Array<{ indications: string[]; valid: boolean }> | null {
  if (!turnLanes) return null;
  const lanes = turnLanes.split('|').map((lane) => lane.split(';').map((value) => value.trim()).filter((value) => value !== '' && value !== 'none'));
  if (lanes.length < 1 || lanes.length > 20) return null;
  const fits = FITTING[turn.startsWith('roundabout_exit_') ? 'straight' : turn] ?? ['through'];
  return lanes.map((indications) => ({
    indications: indications.length > 0 ? indications.map(osrmIndication) : ['none'],
    valid: indications.length === 0 ? fits.includes('through') : indications.some((value) => fits.includes(value)),
  }));
}

const FITTING: Partial<Record<string, string[]>> = {
  straight: ['through', 'slight_left', 'slight_right'],
  slight_left: ['slight_left', 'left', 'through'],
  slight_right: ['slight_right', 'right', 'through'],
  left: ['left', 'slight_left', 'sharp_left'],
  right: ['right', 'slight_right', 'sharp_right'],
  sharp_left: ['sharp_left', 'left'],
  sharp_right: ['sharp_right', 'right'],
  uturn: ['reverse'],
};

/** OSM values to OSRM's: `through` → `straight`, `reverse` → `uturn`, the rest with spaces for underscores. */
function osrmIndication(value: string): string {
  if (value === 'through') return 'straight';
  if (value === 'reverse') return 'uturn';
  return value.replace(/_/g, ' ');
}
