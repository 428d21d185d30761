import { InvalidArchiveNameError } from './errors.js';

export const ARCHIVE_SUFFIX = '.pmtiles';
const NAME = /^[A-Za-z0-9_-]{1,128}$/;

/**
 * The name of an archive in the tiles folder: `firenze` and `firenze.pmtiles`
 * both name the file `firenze.pmtiles`. Only letters, digits, `_` and `-`, so a
 * name can never leave the folder (no `/`, `\`, `.`, `..`, NUL or drive letter).
 */
export class ArchiveName {
  private constructor(readonly value: string) {}

  static parse(raw: string): ArchiveName {
    const bare = raw.endsWith(ARCHIVE_SUFFIX) ? raw.slice(0, -ARCHIVE_SUFFIX.length) : raw;
    if (!NAME.test(bare)) {
      throw new InvalidArchiveNameError('name must be 1-128 characters of A-Z, a-z, 0-9, "_" and "-", optionally followed by ".pmtiles"');
    }
    return new ArchiveName(bare);
  }

  /** The archive's file name inside the tiles folder, or undefined for a file that is not a servable archive. */
  static fromFileName(fileName: string): ArchiveName | undefined {
    if (!fileName.endsWith(ARCHIVE_SUFFIX)) return undefined;
    const bare = fileName.slice(0, -ARCHIVE_SUFFIX.length);
    return NAME.test(bare) ? new ArchiveName(bare) : undefined;
  }

  get fileName(): string {
    return `${this.value}${ARCHIVE_SUFFIX}`;
  }
}
