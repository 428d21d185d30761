import path from 'node:path';
import { ConfigError, loadConfig } from '../../platform/src/index.js';

describe('tiles configuration', () => {
  it('serves <DATA_DIR>/tiles for an hour by default', () => {
    expect(loadConfig({ DATA_DIR: '/srv/location' })).toMatchObject({ tilesDir: path.resolve('/srv/location/tiles'), tilesMaxAgeS: 3600 });
    expect(loadConfig({}).tilesDir).toBe(path.resolve('./data/tiles'));
  });

  it('TILES_DIR and TILES_MAX_AGE_S override them', () => {
    expect(loadConfig({ DATA_DIR: '/srv/location', TILES_DIR: '/mnt/basemaps', TILES_MAX_AGE_S: '0' })).toMatchObject({ tilesDir: '/mnt/basemaps', tilesMaxAgeS: 0 });
    expect(() => loadConfig({ TILES_MAX_AGE_S: '-1' })).toThrow(ConfigError);
  });
});
