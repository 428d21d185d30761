import { hash } from 'node:crypto';

/** Subjects whose hash is remembered at most: a book of loans read again hashes none of its borrowers twice. */
const REMEMBERED = 50_000;
const remembered = new Map<string, string>();

/**
 * Where a subject's key is filed: its SHA-256, so the vault never stores
 * customer ids. Remembered for the last subjects asked (a portfolio read looks
 * up every borrower's key, and hashing them was a sixth of its main thread,
 * ADR 0067); the map is emptied whole when full. It holds nothing the process
 * does not hold already while it works on those subjects.
 */
export function subjectHash(subject: string): string {
  if (subject.length === 0) throw new TypeError('a data-key subject must not be empty');
  let digest = remembered.get(subject);
  if (digest === undefined) {
    if (remembered.size >= REMEMBERED) remembered.clear();
    digest = hash('sha256', subject, 'hex');
    remembered.set(subject, digest);
  }
  return digest;
}
