import { mkdirSync, mkdtempSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { capAlert } from '../__fixtures__/cap-fixtures.js';
import { parseCap } from '../cap/parse-cap.js';
import { CAP_ALERTS_STREAM } from '../domain/cap-alerts.js';
import { alertStore, type AlertStore } from '../testing/alert-store.js';
import { migrateAlertLog, WeatherAlerts } from '../public/alert-log.js';

const at = new Date('2026-11-23T13:00:00Z');
const accra = { lat: 5.6037, lng: -0.187 };
const kumasi = { lat: 6.6885, lng: -1.6244 };
const clock = { now: () => at };

describe('CAP alerts on the alert stream, the follower view and the covering-points query', () => {
  const stores: AlertStore[] = [];
  afterEach(async () => {
    for (const store of stores.splice(0)) await store.close();
  });
  const fresh = async () => {
    const store = await alertStore(clock);
    stores.push(store);
    return store;
  };

  it('says no source is configured or loaded before anything was recorded', async () => {
    const store = await fresh();
    expect(new WeatherAlerts(store.view, false).coveringPoints([accra], at)).toEqual({ configured: false, covered: [false] });
    expect(new WeatherAlerts(store.view, true).coveringPoints([accra], at).configured).toBe(true);
  });

  it('records each message once and answers per point whether an active alert covers it', async () => {
    const store = await fresh();
    const reader = new WeatherAlerts(store.view, false);
    expect(await store.recorder.record([parseCap(capAlert({ event: 'Heat wave' }))])).toBe(1);
    expect(await store.recorder.record([parseCap(capAlert({ event: 'Heat wave' }))])).toBe(0);
    await store.book();
    expect(reader.coveringPoints([accra, kumasi], at)).toEqual({ configured: true, covered: [true, false] });
    // Only flood and rain alerts count for routes.
    expect(reader.coveringPoints([accra], at, { wetOnly: true }).covered).toEqual([false]);
    expect(reader.wetEventCovering([accra], at)).toBeNull();
    await store.recorder.record([parseCap(capAlert({ identifier: 'R1', event: 'Heavy Rain' }))]);
    await store.book();
    expect(reader.wetEventCovering([kumasi, accra], at)).toBe('Heavy Rain');
    // Past expires, nothing covers.
    expect(reader.coveringPoints([accra], new Date('2026-11-23T19:00:00Z')).covered).toEqual([false]);
  });

  it('records an update, a cancel and, once past expires, the expiry as events; a late copy of a replaced alert does not come back', async () => {
    let now = at;
    const store = await alertStore({ now: () => now });
    stores.push(store);
    await store.recorder.record([parseCap(capAlert({ identifier: 'A1', event: 'Heavy Rain' }))]);
    await store.recorder.record([parseCap(capAlert({ identifier: 'A2', msgType: 'Update', references: 'gmet@meteo.gov.gh,A1,2026-11-23T12:00:00+00:00', event: 'Flood' }))]);
    expect(await store.recorder.record([parseCap(capAlert({ identifier: 'A1', event: 'Heavy Rain' }))])).toBe(0);
    expect((await store.book()).active(at).map((alert) => alert.identifier)).toEqual(['A2']);
    await store.recorder.record([parseCap(capAlert({ identifier: 'C1', msgType: 'Cancel', references: 'gmet@meteo.gov.gh,A2,2026-11-23T12:00:00+00:00' }))]);
    expect((await store.book()).active(at)).toEqual([]);
    now = new Date('2026-11-24T00:00:00Z');
    await store.recorder.record([parseCap(capAlert({ identifier: 'B1', event: 'Thunderstorm' }))]);
    const types = (await store.events.readStream(CAP_ALERTS_STREAM)).map((event) => [event.type, (event.data as { message?: { identifier: string }; identifier?: string }).message?.identifier ?? event.data.identifier]);
    expect(types).toEqual([
      ['WeatherAlertImported', 'A1'],
      ['WeatherAlertImported', 'A2'],
      ['WeatherAlertCancelled', 'C1'],
      ['WeatherAlertImported', 'B1'],
      ['WeatherAlertExpired', 'B1'],
    ]);
    // The book still answers for a moment before the expiry.
    expect((await store.book()).active(at).map((alert) => alert.identifier)).toEqual(['B1']);
  });

  it('moves a legacy JSON-lines alert log onto the alert stream once (a torn last line skipped) and renames the file', async () => {
    const store = await fresh();
    const dataDir = mkdtempSync(path.join(tmpdir(), 'weather-'));
    mkdirSync(path.join(dataDir, 'weather'));
    const file = path.join(dataDir, 'weather', 'cap-alerts.jsonl');
    writeFileSync(file, [capAlert({ identifier: 'L1' }), capAlert({ identifier: 'L2', event: 'Heavy Rain' })].map((xml) => JSON.stringify(parseCap(xml))).join('\n') + '\n{"identifier":"half');
    expect(await migrateAlertLog(dataDir, store.recorder)).toEqual({ migrated: 2 });
    expect(existsSync(file)).toBe(false);
    expect(existsSync(`${file}.migrated`)).toBe(true);
    expect((await store.book()).active(at).map((alert) => alert.identifier).sort()).toEqual(['L1', 'L2']);
    expect(await migrateAlertLog(dataDir, store.recorder)).toBeNull();
  });
});
