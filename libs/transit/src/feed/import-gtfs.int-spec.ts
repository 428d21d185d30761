import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FileDatasetStore } from '../../../platform/src/index.js';
import type { FeedRecord, TripRecord } from '../domain/feed-records.js';
import { SAMPLE_FEED, writeGtfsZip, type GtfsTables } from '../testing/gtfs-feed.js';
import { importGtfs, type GtfsImportResult } from '../public/import-gtfs.js';
import { GtfsImportError, type GtfsImportReport } from '../public/import-report.js';

/**
 * Messy feeds (issue #17, "Feeds"): each corrupt variant of the sample feed
 * gives a clear report (counts and examples), what is wrong is left out, and
 * a feed that cannot be used changes nothing that is live.
 */
const freshStore = () => new FileDatasetStore(mkdtempSync(path.join(tmpdir(), 'gtfs-import-')));
const problems = (report: GtfsImportReport) => Object.fromEntries(report.list().map((problem) => [problem.code, [problem.severity, problem.count]]));
const withTable = (name: string, text: string | null): GtfsTables => {
  const tables = { ...SAMPLE_FEED };
  if (text === null) delete tables[name];
  else tables[name] = text;
  return tables;
};
const append = (name: string, ...rows: string[]) => withTable(name, SAMPLE_FEED[name] + rows.map((row) => `${row}\n`).join(''));

async function records(store: FileDatasetStore, dataset = 'transit/gtfs'): Promise<FeedRecord[]> {
  const list: FeedRecord[] = [];
  for await (const record of store.records<FeedRecord>((await store.current(dataset))!)) list.push(record);
  return list;
}

async function refused(store: FileDatasetStore, tables: GtfsTables | string): Promise<GtfsImportError> {
  const file = typeof tables === 'string' ? tables : writeGtfsZip(tables);
  try {
    await importGtfs(store, file);
  } catch (error) {
    if (error instanceof GtfsImportError) return error;
    throw error;
  }
  throw new Error('the import was not refused');
}

describe('import:gtfs', () => {
  let clean: GtfsImportResult;
  let cleanStore: FileDatasetStore;
  beforeAll(async () => {
    cleanStore = freshStore();
    clean = await importGtfs(cleanStore, writeGtfsZip(SAMPLE_FEED));
  });

  it('imports the sample feed: counts, the only note is the interpolated time, the report kept beside the records', async () => {
    expect(clean.version.dataset).toBe('transit/gtfs');
    expect(clean.stats).toMatchObject({ stops: 12, routes: 7, trips: 7, frequency_trips: 2, exact_times_trips: 1, stop_times: 15, services: 2, shapes: 1, skipped: 0 });
    expect(problems(clean.report)).toEqual({ interpolated_times: ['warning', 1] });
    expect(clean.report.list()[0].examples[0]).toContain('trip "L1a"');
    const saved = JSON.parse(readFileSync(path.join(clean.version.directory, 'import-report.json'), 'utf8')) as { files: Record<string, number> };
    expect(saved.files).toMatchObject({ 'stops.txt': 12, 'stop_times.txt': 15, 'frequencies.txt': 2 });
    const night = (await records(cleanStore)).find((record): record is TripRecord => record.t === 'trip' && record.id === 'Na')!;
    // Times past 24:00:00 are valid GTFS: a trip running past midnight.
    expect(night.departures).toEqual([24 * 3600 + 30 * 60, 25 * 3600]);
  });

  it('refuses a feed without stops.txt, naming it, and leaves the live version alone', async () => {
    const before = await cleanStore.currentVersion('transit/gtfs');
    const error = await refused(cleanStore, withTable('stops.txt', null));
    expect(problems(error.report)).toEqual({ missing_required_file: ['fatal', 1] });
    expect(error.report.list()[0].examples).toEqual(['stops.txt']);
    expect(error.message).toContain('stops.txt');
    expect(await cleanStore.currentVersion('transit/gtfs')).toBe(before);
    expect(readdirSync(path.join(cleanStore.root, 'transit/gtfs')).filter((name) => name.startsWith('.staging'))).toEqual([]);
  });

  it('skips a trip pointing to no route, with its stop times, and says which', async () => {
    const tables = { ...append('trips.txt', 'ZZ,WK,Zt,Nowhere,'), 'stop_times.txt': SAMPLE_FEED['stop_times.txt'] + 'Zt,08:00:00,08:00:00,A,1\nZt,08:10:00,08:10:00,B,2\n' };
    const result = await importGtfs(freshStore(), writeGtfsZip(tables));
    expect(problems(result.report)).toMatchObject({ trip_unknown_route: ['skipped', 1], stop_time_unknown_trip: ['skipped', 2] });
    expect(result.report.list().find((problem) => problem.code === 'trip_unknown_route')!.examples).toEqual(['trips.txt line 9: trip "Zt" → route "ZZ"']);
    expect(result.stats.trips).toBe(7);
  });

  it('accepts times past 24:00:00 (up to 71:59:59) and skips malformed or backward ones, with the line', async () => {
    const tables = append(
      'stop_times.txt',
      'L2a,08:00:00,08:00:00,C,9', // fine: one more stop
    );
    tables['trips.txt'] = SAMPLE_FEED['trips.txt'] + 'L2,WK,Late,Delta,\nL2,WK,Typo,Delta,\nL2,WK,Back,Delta,\n';
    tables['stop_times.txt'] += 'Late,47:00:00,47:00:00,C2,1\nLate,47:59:59,47:59:59,D,2\n' + 'Typo,07:61:00,07:61:00,C2,1\nTypo,08:00:00,08:00:00,D,2\n' + 'Back,09:00:00,09:00:00,C2,1\nBack,08:50:00,08:50:00,D,2\n';
    const result = await importGtfs(freshStore(), writeGtfsZip(tables));
    expect(problems(result.report)).toMatchObject({ bad_time: ['skipped', 1], times_decrease: ['skipped', 1] });
    const examples = Object.fromEntries(result.report.list().map((problem) => [problem.code, problem.examples[0]]));
    expect(examples.bad_time).toMatch(/^stop_times.txt line \d+: trip "Typo", arrival "07:61:00"/);
    expect(examples.times_decrease).toMatch(/trip "Back".*08:50:00 after 09:00:00/);
    expect(result.stats.trips).toBe(8);
  });

  it('reads a byte-order mark, CRLF line ends, quoted fields, extra and reordered columns as the clean feed', async () => {
    const messy: GtfsTables = {};
    for (const [name, text] of Object.entries(SAMPLE_FEED)) messy[name] = `\uFEFF${text.replace(/\n/g, '\r\n')}`;
    messy['stops.txt'] = messy['stops.txt']
      .replace('stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station', 'stop_lat,stop_id,stop_name,stop_lon,location_type,parent_station,wheelchair_boarding')
      .replace(/^([A-Z0-9]+),([^,]+),([^,]+),([^,]+),/gm, '$3,$1,$2,$4,')
      .replace('5.6,A,Alpha,', '5.6,A,"Alpha, ""Kwame Nkrumah"" Circle",');
    const result = await importGtfs(freshStore(), writeGtfsZip(messy));
    expect(problems(result.report)).toEqual(problems(clean.report));
    expect(result.stats).toEqual(clean.stats);
    const store = freshStore();
    await importGtfs(store, writeGtfsZip(messy));
    const alpha = (await records(store)).find((record) => record.t === 'stop' && record.id === 'A');
    expect(alpha).toMatchObject({ name: 'Alpha, "Kwame Nkrumah" Circle', lat: 5.6, lng: -0.3 });
  });

  it('does without the optional tables: no shapes, no frequencies (the template trips run once), no agency (UTC, warned)', async () => {
    const tables = { ...SAMPLE_FEED };
    delete tables['shapes.txt'];
    delete tables['frequencies.txt'];
    delete tables['agency.txt'];
    const store = freshStore();
    const result = await importGtfs(store, writeGtfsZip(tables));
    expect(problems(result.report)).toMatchObject({ missing_agency: ['warning', 1], trip_unknown_shape: ['warning', 1] });
    expect(result.stats).toMatchObject({ trips: 7, frequency_trips: 0, shapes: 0 });
    expect((await records(store)).find((record) => record.t === 'feed')).toMatchObject({ timezone: 'UTC' });
  });

  it('reads a feed zipped inside a folder, and services given by calendar_dates.txt alone', async () => {
    const tables = withTable('calendar.txt', null);
    tables['calendar_dates.txt'] = 'service_id,date,exception_type\nWK,20240605,1\nWE,20240608,1\nWK,20240606,1\n';
    const result = await importGtfs(freshStore(), writeGtfsZip(tables, 'feed.zip', { folder: 'gtfs_accra' }));
    expect(result.stats).toMatchObject({ trips: 7, services: 2 });
  });

  it('keeps a stop whose parent_station is unknown, without the parent, and says so', async () => {
    const result = await importGtfs(freshStore(), writeGtfsZip(append('stops.txt', 'Z,Zulu,5.7,-0.3,0,NOPE')));
    expect(problems(result.report)).toMatchObject({ dangling_parent_station: ['warning', 1] });
  });

  it('refuses a file that is not a zip, and a feed left with no usable trip, changing nothing live', async () => {
    const notZip = path.join(mkdtempSync(path.join(tmpdir(), 'gtfs-')), 'feed.zip');
    writeFileSync(notZip, 'route_id,route_type\n');
    expect(problems((await refused(cleanStore, notZip)).report)).toEqual({ not_a_zip: ['fatal', 1] });
    const before = await cleanStore.currentVersion('transit/gtfs');
    const noRoutes = withTable('routes.txt', 'route_id,route_type\n');
    const error = await refused(cleanStore, noRoutes);
    expect(problems(error.report)).toMatchObject({ trip_unknown_route: ['skipped', 7], no_usable_trip: ['fatal', 1] });
    expect(await cleanStore.currentVersion('transit/gtfs')).toBe(before);
    expect(readdirSync(path.join(cleanStore.root, 'transit/gtfs')).filter((name) => name.startsWith('.staging'))).toEqual([]);
  });

  it('names a broken CSV table', async () => {
    const error = await refused(freshStore(), withTable('stops.txt', 'stop_id,stop_name,stop_lat,stop_lon\nA,"unclosed,5.6,-0.3\n'));
    expect(problems(error.report)).toEqual({ unreadable_table: ['fatal', 1] });
    expect(error.message).toContain('stops.txt');
  });
});
