import { boundedEditDistance, typoBudget } from './edit-distance.js';
import { greatCircleM } from '../../../platform/src/geo/geodesy.js';
import { normalise } from './normalise.js';
import type { Place } from './place.js';

/**
 * The in-memory place search behind GET /v2/search (docs/adr/0011).
 *
 * Matching: every query word must match a word of one of the place's names
 * (its name or an alternate name) or, for at most all but one word, a word of
 * its region or district ("madina accra"). The last word also matches as a
 * prefix, for type-ahead. Ranking mixes three scores, each 0..1:
 *
 * - text: the share of query words matched (a prefix counts by how much of the
 *   word it covers), times how much of the name the query covers, so "Kumasi"
 *   ranks the place named exactly that above "Kumasi Technical University";
 *   an alternate name counts a little less than the name itself;
 * - importance: population, class and admin level, from the import;
 * - proximity to `near`, when given: 1 / (1 + d / 25 km).
 *
 * A place whose name and position (within 2 km) repeat a better-ranked one is
 * the same place from another source or level ("Kumasi" the city and the
 * district) and is left out.
 *
 * did_you_mean: a query word that is no word of any name is corrected to the
 * most important name word one slip away (from 4 letters; from 8 letters also
 * two slips, when they are a deletion on each side, e.g. a letter dropped and
 * another added); when the corrected query finds a better match than the
 * query itself, it is suggested and its places follow the query's own (marked
 * `fuzzy`). A query that only matched an alternate spelling of a place's name
 * ("Kumasy") suggests the name ("Kumasi").
 */

export type MatchKind = 'exact' | 'partial' | 'prefix' | 'alternate' | 'fuzzy';

export interface SearchQuery {
  text: string;
  near?: { lat: number; lng: number };
  limit: number;
  offset: number;
}

export interface SearchHit {
  place: Place;
  score: number;
  match: MatchKind;
  /** The alternate name that matched, when it was not the place's name. */
  matched_name: string | null;
  distance_m: number | null;
}

export interface SearchResult {
  hits: SearchHit[];
  /** True when more hits follow this page. */
  more: boolean;
  did_you_mean: string | null;
}

export const MAX_QUERY_WORDS = 10;
/** Deepest reachable result (offset + limit). */
export const MAX_RESULTS = 100;

const WEIGHTS = { text: 0.7, importance: 0.3 } as const;
const WEIGHTS_NEAR = { text: 0.55, importance: 0.15, proximity: 0.3 } as const;
const PROXIMITY_SCALE_M = 25_000;
const ALTERNATE_FACTOR = 0.95;
const CONTEXT_WORD_SCORE = 0.5;
const DUPLICATE_RADIUS_M = 2_000;
const MIN_PREFIX_LENGTH = 2;
/** A prefix standing for more name words than this is matched against the first ones only (alphabetically). */
const MAX_PREFIX_EXPANSION = 5_000;
/** Words of a name beyond these are not indexed (a name is not a paragraph). */
const MAX_WORDS_PER_NAME = 16;
/** Shorter name words are not offered as corrections (a 4-letter query's correction has at least 3). */
const MIN_TYPO_WORD_LENGTH = 3;

interface Variant {
  name: string;
  normalised: string;
  words: string[];
  primary: boolean;
}

interface Entry {
  place: Place;
  variants: Variant[];
  /** Words of its region and district. */
  context: string[];
}

interface Scored {
  entry: Entry;
  text: number;
  match: Exclude<MatchKind, 'fuzzy'>;
  matchedName: string | null;
}

export class SearchIndex {
  private readonly entries: Entry[] = [];
  /** Name word → indices of the entries having it, ascending and distinct. */
  private readonly postings = new Map<string, number[]>();
  /** Every name word, sorted, for prefix ranges. */
  private readonly vocabulary: string[];
  /**
   * Symmetric-delete index for the typo search: every name word (3+ letters)
   * and each of its one-letter deletions → the words. A query word and its own
   * one-letter deletions look up every word one slip away (insertion,
   * deletion, substitution, swap) and those a deletion on each side apart,
   * without comparing against the whole vocabulary.
   */
  private readonly deletions = new Map<string, string[]>();
  /** A name word's weight as a correction: the importance of the most important place named with it. */
  private readonly wordWeight = new Map<string, number>();

  constructor(places: Iterable<Place>) {
    for (const place of places) {
      const index = this.entries.length;
      const variants = [place.name, ...place.alt_names].map((name, position) => {
        const normalised = normalise(name);
        return { name, normalised, words: normalised === '' ? [] : normalised.split(' ').slice(0, MAX_WORDS_PER_NAME), primary: position === 0 };
      });
      const context = new Set([place.region, place.district].flatMap((name) => (name ? normalise(name).split(' ') : [])));
      this.entries.push({ place, variants, context: [...context].filter(Boolean) });
      for (const variant of variants) {
        // As a correction, a word of a name outweighs the same place's alternate spellings.
        const weight = place.importance * (variant.primary ? 1 : ALTERNATE_FACTOR);
        for (const word of variant.words) {
          const list = this.postings.get(word);
          if (!list) this.postings.set(word, [index]);
          else if (list[list.length - 1] !== index) list.push(index);
          if ((this.wordWeight.get(word) ?? -1) < weight) this.wordWeight.set(word, weight);
        }
      }
    }
    this.vocabulary = [...this.postings.keys()].sort();
    for (const word of this.vocabulary) {
      if (word.length < MIN_TYPO_WORD_LENGTH) continue;
      for (const key of new Set([word, ...oneDeletion(word)])) {
        const list = this.deletions.get(key);
        if (list) list.push(word);
        else this.deletions.set(key, [word]);
      }
    }
  }

  get size(): number {
    return this.entries.length;
  }

  /** The query's words, or an empty list when it has no letters or digits. */
  static words(text: string): string[] {
    const normalised = normalise(text);
    return normalised === '' ? [] : normalised.split(' ');
  }

  search(query: SearchQuery): SearchResult {
    const words = SearchIndex.words(query.text).slice(0, MAX_QUERY_WORDS);
    const wanted = Math.min(query.offset + query.limit, MAX_RESULTS);
    if (words.length === 0 || wanted <= query.offset) return { hits: [], more: false, did_you_mean: null };

    const own = this.ranked(words, query.near, wanted + 1);
    let hits = own;
    let didYouMean: string | null = null;

    const corrected = this.correct(words);
    if (corrected) {
      const fuzzy = this.ranked(corrected, query.near, wanted + 1);
      if (fuzzy.length > 0 && (own.length === 0 || fuzzy[0].score > own[0].score)) {
        const normalised = corrected.join(' ');
        const top = fuzzy[0];
        // The corrected words are one of the top place's names: suggest its name, the spelling people look for.
        const named = normalise(top.place.name) === normalised || (top.matched_name !== null && normalise(top.matched_name) === normalised);
        didYouMean = named ? top.place.name : normalised;
        const seen = new Set(own.map((hit) => hit.place.id));
        hits = [...own, ...fuzzy.filter((hit) => !seen.has(hit.place.id)).map((hit) => ({ ...hit, match: 'fuzzy' as const }))];
      }
    }
    if (!didYouMean && own.length > 0) didYouMean = this.spellingOfName(words, own[0]);

    return { hits: hits.slice(query.offset, wanted), more: hits.length > wanted && wanted < MAX_RESULTS, did_you_mean: didYouMean };
  }

  /** Places matching every word, best first, near-duplicates removed, at most `count`. */
  private ranked(words: string[], near: SearchQuery['near'], count: number): SearchHit[] {
    const queryNormalised = words.join(' ');
    const prefixes = this.prefixExpansion(words[words.length - 1]);
    const candidates = new Set<number>();
    words.forEach((word, position) => {
      for (const index of this.postings.get(word) ?? []) candidates.add(index);
      if (position === words.length - 1) for (const expansion of prefixes) for (const index of this.postings.get(expansion) ?? []) candidates.add(index);
    });

    const scored: Array<SearchHit & { entry: Entry }> = [];
    for (const index of candidates) {
      const match = scoreEntry(this.entries[index], words, queryNormalised);
      if (!match) continue;
      const place = match.entry.place;
      const distance = near ? greatCircleM(near.lat, near.lng, place.lat, place.lng) : null;
      const score =
        distance === null
          ? WEIGHTS.text * match.text + WEIGHTS.importance * place.importance
          : WEIGHTS_NEAR.text * match.text + WEIGHTS_NEAR.importance * place.importance + WEIGHTS_NEAR.proximity / (1 + distance / PROXIMITY_SCALE_M);
      scored.push({
        entry: match.entry,
        place,
        score: Math.round(score * 10_000) / 10_000,
        match: match.match,
        matched_name: match.matchedName,
        distance_m: distance === null ? null : Math.round(distance),
      });
    }
    scored.sort((a, b) => b.score - a.score || b.place.importance - a.place.importance || (a.place.id < b.place.id ? -1 : 1));

    const kept: Array<SearchHit & { entry: Entry }> = [];
    for (const hit of scored) {
      if (kept.length >= count) break;
      if (kept.some((other) => isSamePlace(other.entry, hit.entry))) continue;
      kept.push(hit);
    }
    return kept.map(({ entry: _entry, ...hit }) => hit);
  }

  private prefixExpansion(word: string): string[] {
    if (word.length < MIN_PREFIX_LENGTH) return [];
    const expansion: string[] = [];
    for (let i = lowerBound(this.vocabulary, word); i < this.vocabulary.length && expansion.length < MAX_PREFIX_EXPANSION; i++) {
      const candidate = this.vocabulary[i];
      if (!candidate.startsWith(word)) break;
      if (candidate !== word) expansion.push(candidate);
    }
    return expansion;
  }

  /** The query with each word that names nothing replaced by its likeliest intended word; null when nothing changes. */
  private correct(words: string[]): string[] | null {
    let changed = false;
    const corrected = words.map((word) => {
      if (this.postings.has(word)) return word;
      const replacement = this.closestWord(word);
      if (replacement) changed = true;
      return replacement ?? word;
    });
    return changed ? corrected : null;
  }

  private closestWord(word: string): string | null {
    const budget = typoBudget(word.length);
    if (budget === 0) return null;
    let best: string | null = null;
    let bestDistance = budget + 1;
    let bestWeight = -1;
    const seen = new Set<string>();
    for (const key of [word, ...oneDeletion(word)]) {
      for (const candidate of this.deletions.get(key) ?? []) {
        if (seen.has(candidate)) continue;
        seen.add(candidate);
        const distance = boundedEditDistance(word, candidate, budget);
        if (distance > budget) continue;
        const weight = this.wordWeight.get(candidate) ?? 0;
        if (distance < bestDistance || (distance === bestDistance && weight > bestWeight)) {
          best = candidate;
          bestDistance = distance;
          bestWeight = weight;
        }
      }
    }
    return best;
  }

  /** "Kumasy" found Kumasi through an alternate spelling: suggest the name itself. */
  private spellingOfName(words: string[], top: SearchHit): string | null {
    if (top.match !== 'alternate') return null;
    const query = words.join(' ');
    const name = normalise(top.place.name);
    if (name === query || normalise(top.matched_name ?? '') !== query) return null;
    const budget = Math.max(1, typoBudget(query.length));
    return boundedEditDistance(query, name, budget) <= budget ? top.place.name : null;
  }
}

/** The best of the place's names for these words, or null when some word matches none of them. */
function scoreEntry(entry: Entry, words: string[], queryNormalised: string): Scored | null {
  let best: Scored | null = null;
  const last = words.length - 1;
  for (const variant of entry.variants) {
    let total = 0;
    let fromContext = 0;
    let usedPrefix = false;
    let covered = 0;
    let failed = false;
    for (let i = 0; i < words.length && !failed; i++) {
      const word = words[i];
      let wordScore = 0;
      let at = -1;
      for (let j = 0; j < variant.words.length; j++) {
        const candidate = variant.words[j];
        if (candidate === word) {
          wordScore = 1;
          at = j;
          break;
        }
        if (i === last && word.length >= MIN_PREFIX_LENGTH && candidate.startsWith(word)) {
          const partial = 0.5 + (0.5 * word.length) / candidate.length;
          if (partial > wordScore) {
            wordScore = partial;
            at = j;
          }
        }
      }
      if (at >= 0) {
        if (wordScore < 1) usedPrefix = true;
        covered |= 1 << at;
      } else if (entry.context.some((candidate) => candidate === word || (i === last && word.length >= MIN_PREFIX_LENGTH && candidate.startsWith(word)))) {
        wordScore = CONTEXT_WORD_SCORE;
        fromContext++;
      } else failed = true;
      total += wordScore;
    }
    if (failed || fromContext === words.length) continue;
    const coverage = bitCount(covered) / Math.max(1, variant.words.length);
    let text = (total / words.length) * (0.6 + 0.4 * coverage);
    const exact = variant.normalised === queryNormalised;
    if (exact) text = 1;
    if (!variant.primary) text *= ALTERNATE_FACTOR;
    if (best && best.text >= text) continue;
    const match: Scored['match'] = !variant.primary ? 'alternate' : exact ? 'exact' : usedPrefix ? 'prefix' : 'partial';
    best = { entry, text, match, matchedName: variant.primary ? null : variant.name };
  }
  return best;
}

function isSamePlace(a: Entry, b: Entry): boolean {
  return a.variants[0].normalised === b.variants[0].normalised && greatCircleM(a.place.lat, a.place.lng, b.place.lat, b.place.lng) < DUPLICATE_RADIUS_M;
}

function oneDeletion(word: string): string[] {
  const result: string[] = [];
  for (let i = 0; i < word.length; i++) result.push(word.slice(0, i) + word.slice(i + 1));
  return result;
}

function lowerBound(sorted: string[], value: string): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle] < value) low = middle + 1;
    else high = middle;
  }
  return low;
}

function bitCount(value: number): number {
  let count = 0;
  for (let v = value; v !== 0; v &= v - 1) count++;
  return count;
}
