/**
 * Text normalisation shared by the importers and the search: one function so a
 * name is indexed exactly as a query for it is read. Case, accents (NFKD, then
 * combining marks dropped), apostrophes ("Mary's" → "marys") and any other
 * punctuation (a token boundary) do not matter. Letters of every script stay.
 */
const COMBINING_MARKS = /\p{M}+/gu;
const APOSTROPHES = /['’ʼ`´]/g;
const SEPARATORS = /[^\p{L}\p{N}]+/gu;

export function normalise(text: string): string {
  return text.normalize('NFKD').replace(COMBINING_MARKS, '').toLowerCase().replace(APOSTROPHES, '').replace(SEPARATORS, ' ').trim();
}

export function tokens(text: string): string[] {
  const normalised = normalise(text);
  return normalised === '' ? [] : normalised.split(' ');
}
