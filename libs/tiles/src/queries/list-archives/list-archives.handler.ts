import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { TileArchives } from '../../archives.js';
import type { AnswerOf } from '../../../../platform/src/index.js';
import type { ListArchivesAnswerSchema } from './list-archives.answer.js';

const DEFAULT_LIMIT = 100;

export type ArchivePage = AnswerOf<typeof ListArchivesAnswerSchema>;

/** GET /v2/tiles[?limit&cursor]: a page of archives by name, after `cursor`. */
export class ListArchivesQuery extends Query<ArchivePage> {
  constructor(
    readonly limit?: number,
    readonly cursor?: string,
  ) {
    super();
  }
}

/** The archives GET /v2/tiles/{name} serves, with what their PMTiles headers say about them. */
@QueryHandler(ListArchivesQuery)
export class ListArchivesHandler implements IQueryHandler<ListArchivesQuery> {
  constructor(private readonly archives: TileArchives) {}

  async execute(query: ListArchivesQuery): Promise<ArchivePage> {
    const limit = query.limit ?? DEFAULT_LIMIT;
    const after = query.cursor;
    const all = await this.archives.list();
    const page = all.filter((archive) => after === undefined || archive.name > after).slice(0, limit + 1);
    const items = page.slice(0, limit).map((archive) => ({ name: archive.name, url: `/v2/tiles/${archive.name}`, ...withoutName(archive) }));
    return { items, next_cursor: page.length > limit ? items[items.length - 1].name : null };
  }
}

function withoutName<T extends { name: string }>({ name: _name, ...rest }: T): Omit<T, 'name'> {
  return rest;
}
