import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DatasetNotLoadedError } from '../domain/errors.js';
import { Gazetteer } from './gazetteer.js';
import { importGeoNames, importOsm } from './importers.js';
import { FileDatasetStore } from '../../../platform/src/index.js';

const fixture = (name: string) => fileURLToPath(new URL(`../__fixtures__/${name}`, import.meta.url));
const quiet = { info: () => undefined, error: () => undefined };
const query = (text: string) => ({ text, limit: 10, offset: 0 });

describe('Gazetteer', () => {
  it('answers DATASET_NOT_LOADED before any import, then picks up imports without restart', async () => {
    const store = new FileDatasetStore(mkdtempSync(path.join(tmpdir(), 'places-gazetteer-')));
    const gazetteer = new Gazetteer(store, quiet, 0);
    await gazetteer.start();
    expect(() => gazetteer.search(query('Kumasi'))).toThrow(DatasetNotLoadedError);

    await importGeoNames(store, fixture('geonames-sample.txt'));
    expect(await gazetteer.reload()).toBe(true);
    expect(gazetteer.search(query('Kumasi')).hits[0].place.id).toBe('geonames:2298890');
    expect(await gazetteer.reload()).toBe(false);

    await importOsm(store, fixture('osm-sample.osm'), { dataset: 'osm-accra' });
    expect(await gazetteer.reload()).toBe(true);
    expect(gazetteer.search(query('Makola')).hits[0].place.id).toBe('osm:way/100');
    expect(gazetteer.datasets.map((d) => d.dataset)).toEqual(['places/geonames', 'places/osm-accra']);
  });

  it('keeps serving the loaded version when a new one fails its checksum', async () => {
    const store = new FileDatasetStore(mkdtempSync(path.join(tmpdir(), 'places-gazetteer-')));
    await importGeoNames(store, fixture('geonames-sample.txt'));
    const errors: unknown[] = [];
    const gazetteer = new Gazetteer(store, { info: () => undefined, error: (fields) => errors.push(fields) }, 0);
    await gazetteer.start();
    const next = await importGeoNames(store, fixture('geonames-sample.txt'));
    writeFileSync(path.join(next.version.directory, 'records.ndjson'), '{}\n');
    expect(await gazetteer.reload()).toBe(false);
    expect(errors).toHaveLength(1);
    expect(gazetteer.search(query('Tema')).hits[0].place.name).toBe('Tema');
  });
});
