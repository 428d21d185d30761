import { createHash } from 'node:crypto';
import { subjectHash } from './subject-hash.js';

describe('subjectHash', () => {
  it('is the SHA-256 of the subject, the same when remembered, and differs between subjects', () => {
    const expected = (subject: string) => createHash('sha256').update(subject, 'utf8').digest('hex');
    for (const subject of ['cus_1', 'cus_2', 'Kwame Ɔdɔ', 'cus_1']) expect(subjectHash(subject)).toBe(expected(subject));
    expect(subjectHash('cus_1')).not.toBe(subjectHash('cus_2'));
    // Past the remembered count the map starts again; answers stay right.
    for (let index = 0; index < 50_010; index++) subjectHash(`s${index}`);
    expect(subjectHash('cus_2')).toBe(expected('cus_2'));
  });

  it('refuses an empty subject', () => {
    expect(() => subjectHash('')).toThrow(TypeError);
  });
});
