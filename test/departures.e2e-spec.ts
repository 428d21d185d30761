import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { importGtfs } from '../libs/transit/src/index.js';
import { SAMPLE_FEED, SAMPLE_STOPS, writeGtfsZip } from '../libs/transit/src/testing/gtfs-feed.js';
import { FileDatasetStore } from '../libs/platform/src/index.js';
import { bootService, type Service } from './support/boot.js';

/**
 * Issue 29, item 7: the departures board leaves out lines whose last stop is
 * where the rider already is — the boarding stop's cluster (same parent
 * station, or within 500 m), or another stop of the board (998 → Circle
 * Overhead, at Circle Overhead).
 */
const feed = {
  ...SAMPLE_FEED,
  'stops.txt': `${SAMPLE_FEED['stops.txt']}C3,Central East,5.6,-0.1965,0,\nC4,Central Far,5.6,-0.19,0,\n`,
  'routes.txt': `${SAMPLE_FEED['routes.txt']}Y,T,Y,Central - Central East,3,\nZ,T,Z,Bravo - Central North,3,\nV,T,V,Central - Central Far,3,\n`,
  'trips.txt': `${SAMPLE_FEED['trips.txt']}Y,WK,Ya,Central East,\nZ,WK,Za,Central North,\nV,WK,Va,Central Far,\n`,
  'stop_times.txt':
    `${SAMPLE_FEED['stop_times.txt']}` +
    // 388 m: the same cluster, though another station.
    'Ya,09:00:00,09:00:00,C,1\nYa,09:05:00,09:05:00,C3,2\n' +
    // Boarded at Central, ends at Central North: the same parent station.
    'Za,09:00:00,09:00:00,B,1\nZa,09:10:00,09:10:00,C,2\nZa,09:12:00,09:12:00,C2,3\n' +
    // 1.1 km: a ride worth listing.
    'Va,09:00:00,09:00:00,C,1\nVa,09:06:00,09:06:00,C4,2\n',
};

interface Line {
  route: { short_name: string };
  destination: string;
  stop: { id: string };
  last_stop: { id: string };
}

describe('GET /v2/transit/departures leaves out lines that end where the rider stands', () => {
  let service: Service;

  beforeAll(async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'location-api-departures-'));
    await importGtfs(new FileDatasetStore(path.join(dataDir, 'reference')), writeGtfsZip(feed));
    service = await bootService({ dataDir, env: { THROTTLE_ROUTING_PER_MINUTE: '1000' } });
  }, 60_000);
  afterAll(async () => {
    await service?.close();
  });

  const board = async (point: { lat: number; lng: number }, radius: number) => {
    const response = await service.request('GET', `/v2/transit/departures?lat=${point.lat}&lng=${point.lng}&radius_m=${radius}&date=2024-06-05&time=08:30`);
    expect(response.status).toBe(200);
    return ((await response.json()) as { data: { lines: Line[] } }).data.lines;
  };

  it('lists the lines that take the rider somewhere else, and none ending in the stop cluster', async () => {
    const lines = await board(SAMPLE_STOPS.C, 100);
    expect(lines.map((line) => `${line.route.short_name} ${line.stop.id}→${line.last_stop.id}`).sort()).toEqual(['V C→C4']);
  });

  it('keeps a line boarded far from its end: Z at Bravo', async () => {
    const lines = await board(SAMPLE_STOPS.B, 100);
    expect(lines.map((line) => `${line.route.short_name} ${line.stop.id}→${line.last_stop.id}`)).toEqual(['1 B→C', 'Z B→C2']);
  });
});
