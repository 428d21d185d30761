import { ArchiveName } from './archive-name.js';
import { InvalidArchiveNameError } from './errors.js';

describe('ArchiveName', () => {
  it.each([
    ['firenze', 'firenze'],
    ['firenze.pmtiles', 'firenze'],
    ['Accra_2025-06', 'Accra_2025-06'],
    ['x'.repeat(128), 'x'.repeat(128)],
  ])('%s names the file %s.pmtiles', (raw, value) => {
    const name = ArchiveName.parse(raw);
    expect(name.value).toBe(value);
    expect(name.fileName).toBe(`${value}.pmtiles`);
  });

  it.each([
    '',
    '.pmtiles',
    '..',
    '../firenze',
    '..%2Ffirenze',
    'a/b',
    'a\\b',
    '/etc/passwd',
    'firenze.pmtiles.pmtiles',
    'firenze.mbtiles',
    'fi renze',
    'fi\0renze',
    'C:firenze',
    'é',
    'x'.repeat(129),
  ])('refuses %j with INVALID_PARAM on the field name', (raw) => {
    const attempt = () => ArchiveName.parse(raw);
    expect(attempt).toThrow(InvalidArchiveNameError);
    try {
      attempt();
    } catch (error) {
      expect(error).toMatchObject({ code: 'INVALID_PARAM', status: 400, field: 'name' });
    }
  });

  it('lists only files that a request could name', () => {
    expect(ArchiveName.fromFileName('firenze.pmtiles')?.value).toBe('firenze');
    expect(ArchiveName.fromFileName('firenze.pmtiles.tmp')).toBeUndefined();
    expect(ArchiveName.fromFileName('.hidden.pmtiles')).toBeUndefined();
    expect(ArchiveName.fromFileName('README.md')).toBeUndefined();
  });
});
