import { Inject, Module, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { CONFIG, type Config } from '../../platform/src/index.js';
import { TileArchives } from './archives.js';
import { installTilesCors, TilesPreflightController } from './cors.js';
import { GetArchiveController } from './queries/get-archive/get-archive.controller.js';
import { GetArchiveHandler } from './queries/get-archive/get-archive.handler.js';
import { ListArchivesController } from './queries/list-archives/list-archives.controller.js';
import { ListArchivesHandler } from './queries/list-archives/list-archives.handler.js';

/** Basemap tiles (interface.md, "GET /v2/tiles/{name}"): PMTiles archives from TILES_DIR, read by range. */
@Module({
  controllers: [TilesPreflightController, ListArchivesController, GetArchiveController],
  providers: [{ provide: TileArchives, inject: [CONFIG], useFactory: (config: Config) => new TileArchives(config.tilesDir) }, ListArchivesHandler, GetArchiveHandler],
})
export class TilesModule implements OnModuleInit {
  constructor(@Inject(HttpAdapterHost) private readonly host: HttpAdapterHost) {}

  onModuleInit(): void {
    const fastify = this.host.httpAdapter?.getInstance() as FastifyInstance | undefined;
    if (fastify) installTilesCors(fastify);
  }
}
