import { InvalidParamError } from '../../../platform/src/errors.js';

/**
 * A share code as a person reads it out and types it (docs/adr/0020): twelve
 * characters of Crockford's base-32 alphabet in three groups of four,
 * `7QK4-M2XD-9HRT`: 60 random bits. Input is forgiving as Crockford intends —
 * any case, hyphens and spaces anywhere, I and L read as 1, O as 0 — so the
 * normalised form is what is hashed and looked up.
 *
 * 60 bits against at most 10 failed guesses per account (and 50 per IP) in 15
 * minutes, and a code that lives 10 minutes: a guesser holding a million
 * accounts would need about 2^60 / 10^7 ≈ 10^11 windows to expect one hit.
 */
export const CROCKFORD_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export const SHARE_CODE_CHARACTERS = 12;
export const SHARE_CODE_BITS = SHARE_CODE_CHARACTERS * 5;
/** Random bytes `formatShareCode` takes (the top 4 of 64 bits are dropped). */
export const SHARE_CODE_RANDOM_BYTES = 8;
const GROUP = 4;
/** Longest text taken as a code before normalising (hyphens and spaces included). */
export const SHARE_CODE_MAX_INPUT = 40;

/** The display form of a code made from `SHARE_CODE_RANDOM_BYTES` random bytes (the caller draws them: the domain does no I/O). */
export function formatShareCode(random: Uint8Array): string {
  if (random.length < SHARE_CODE_RANDOM_BYTES) throw new Error(`a share code needs ${SHARE_CODE_RANDOM_BYTES} random bytes`);
  let value = 0n;
  for (let index = 0; index < SHARE_CODE_RANDOM_BYTES; index++) value = (value << 8n) | BigInt(random[index]);
  let compact = '';
  for (let index = 0; index < SHARE_CODE_CHARACTERS; index++) {
    compact = CROCKFORD_ALPHABET[Number(value & 31n)] + compact;
    value >>= 5n;
  }
  return displayShareCode(compact);
}

/** `7QK4M2XD9HRT` → `7QK4-M2XD-9HRT`. */
export function displayShareCode(compact: string): string {
  const groups: string[] = [];
  for (let index = 0; index < compact.length; index += GROUP) groups.push(compact.slice(index, index + GROUP));
  return groups.join('-');
}

/**
 * The canonical form of a typed code (twelve upper-case alphabet characters),
 * or 400 INVALID_PARAM naming `code`. Telling a malformed code from a wrong
 * one reveals nothing: the shape is public, which codes exist is not.
 */
export function normaliseShareCode(input: string): string {
  if (input.length > SHARE_CODE_MAX_INPUT) throw new InvalidParamError(`code is at most ${SHARE_CODE_MAX_INPUT} characters`, 'code');
  const compact = input
    .replace(/[\s-]+/g, '')
    .toUpperCase()
    .replace(/[IL]/g, '1')
    .replace(/O/g, '0');
  for (const character of compact) {
    if (!CROCKFORD_ALPHABET.includes(character)) {
      throw new InvalidParamError(`code holds "${character}", which is not one of ${CROCKFORD_ALPHABET} (hyphens and spaces are ignored)`, 'code');
    }
  }
  if (compact.length !== SHARE_CODE_CHARACTERS) {
    throw new InvalidParamError(`a share code has ${SHARE_CODE_CHARACTERS} characters (hyphens and spaces aside), this one ${compact.length}`, 'code');
  }
  return compact;
}
