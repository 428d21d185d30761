import { createHash } from 'node:crypto';

/** Where a subject's key is filed: its SHA-256, so the vault never stores customer ids. */
export function subjectHash(subject: string): string {
  if (subject.length === 0) throw new TypeError('a data-key subject must not be empty');
  return createHash('sha256').update(subject, 'utf8').digest('hex');
}
