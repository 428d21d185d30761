/**
 * How prominent a place is, 0..1, whatever the query: the larger of a
 * population score and a class score. Population is log-scaled so that a town
 * of 10,000 is not a hundredth of a city of a million (100 people → 0,
 * 10,000 → 0.44, 1,000,000 → 0.89, 2 million → 0.96).
 */
export function populationScore(population: number | null): number {
  if (!population || population <= 100) return 0;
  return Math.min(1, (Math.log10(population) - 2) / 4.5);
}

export function importance(population: number | null, classScore: number): number {
  return Math.round(Math.max(populationScore(population), classScore) * 1000) / 1000;
}
