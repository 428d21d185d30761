/**
 * Optimal-string-alignment distance (Levenshtein plus adjacent transposition,
 * the commonest typing slip), abandoned as soon as it must exceed `max`.
 * Returns `max + 1` for anything further apart, so callers compare cheaply.
 */
export function boundedEditDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  if (a === b) return 0;
  const columns = b.length + 1;
  let before = new Array<number>(columns);
  let previous = new Array<number>(columns);
  let current = new Array<number>(columns);
  for (let j = 0; j < columns; j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    let rowMinimum = i;
    for (let j = 1; j < columns; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let value = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
      if (i > 1 && j > 1 && a.charCodeAt(i - 1) === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === b.charCodeAt(j - 1)) {
        value = Math.min(value, before[j - 2] + 1);
      }
      current[j] = value;
      if (value < rowMinimum) rowMinimum = value;
    }
    if (rowMinimum > max) return max + 1;
    [before, previous, current] = [previous, current, before];
  }
  const distance = previous[b.length];
  return distance > max ? max + 1 : distance;
}

/** How many typing slips a token of this length may hold and still be suggested: none below 4 characters. */
export function typoBudget(length: number): number {
  if (length < 4) return 0;
  return length < 8 ? 1 : 2;
}
