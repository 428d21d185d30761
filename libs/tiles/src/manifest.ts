import type { ContextManifest } from '../../platform/src/index.js';
import { GetArchiveQuery } from './queries/get-archive/get-archive.handler.js';
import { ListArchivesQuery } from './queries/list-archives/list-archives.handler.js';

/** What the tiles context brings to a process: queries over the archives of TILES_DIR; it stores no event. */
export const tilesManifest: ContextManifest = {
  name: 'tiles',
  events: [],
  queries: [ListArchivesQuery, GetArchiveQuery],
};
