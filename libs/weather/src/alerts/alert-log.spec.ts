import { appendFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { capAlert } from '../__fixtures__/cap-fixtures.js';
import { parseCap } from '../cap/parse-cap.js';
import { AlertLog, WeatherAlerts } from './alert-log.js';

const at = new Date('2026-11-23T13:00:00Z');
const accra = { lat: 5.6037, lng: -0.187 };
const kumasi = { lat: 6.6885, lng: -1.6244 };

describe('the alert log and the covering-points query', () => {
  const fresh = () => AlertLog.in(mkdtempSync(path.join(tmpdir(), 'weather-')));

  it('says no source is configured or loaded before anything was imported', () => {
    expect(new WeatherAlerts(fresh(), false).coveringPoints([accra], at)).toEqual({ configured: false, covered: [false] });
    expect(new WeatherAlerts(fresh(), true).coveringPoints([accra], at).configured).toBe(true);
  });

  it('answers per point whether an active alert covers it, for every process reading the same log', () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'weather-'));
    const writer = AlertLog.in(dataDir);
    const reader = new WeatherAlerts(AlertLog.in(dataDir), false);
    expect(writer.append([parseCap(capAlert({ event: 'Heat wave' }))])).toBe(1);
    expect(writer.append([parseCap(capAlert({ event: 'Heat wave' }))])).toBe(0);
    expect(reader.coveringPoints([accra, kumasi], at)).toEqual({ configured: true, covered: [true, false] });
    // Only flood and rain alerts count for routes.
    expect(reader.coveringPoints([accra], at, { wetOnly: true }).covered).toEqual([false]);
    expect(reader.wetEventCovering([accra], at)).toBeNull();
    writer.append([parseCap(capAlert({ identifier: 'R1', event: 'Heavy Rain' }))]);
    expect(reader.wetEventCovering([kumasi, accra], at)).toBe('Heavy Rain');
    // Past expires, nothing covers.
    expect(reader.coveringPoints([accra], new Date('2026-11-23T19:00:00Z')).covered).toEqual([false]);
  });

  it('skips a torn last line (a crash mid-append)', () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'weather-'));
    const log = AlertLog.in(dataDir);
    log.append([parseCap(capAlert())]);
    appendFileSync(path.join(dataDir, 'weather', 'cap-alerts.jsonl'), '{"identifier":"half');
    expect(AlertLog.in(dataDir).current().active(at)).toHaveLength(1);
  });
});
