import { formatGtfsTime, instantOf, localOf, parseClockTime, parseGtfsDate, parseGtfsTime, parseIsoDate, weekdayOf, zoneOffsetMs } from './clock-time.js';

describe('GTFS and request times', () => {
  it('reads GTFS times past midnight, and refuses malformed ones', () => {
    expect(parseGtfsTime('07:05:09')).toBe(7 * 3600 + 5 * 60 + 9);
    expect(parseGtfsTime('7:05:09')).toBe(7 * 3600 + 5 * 60 + 9);
    expect(parseGtfsTime(' 25:10:00 ')).toBe(25 * 3600 + 600);
    expect(parseGtfsTime('47:59:59')).toBe(47 * 3600 + 59 * 60 + 59);
    for (const bad of ['', '07:60:00', '07:05', '07:05:61', 'ab:cd:ef', '72:00:00', '-1:00:00']) expect(parseGtfsTime(bad)).toBeNull();
    expect(formatGtfsTime(25 * 3600 + 61)).toBe('25:01:01');
  });

  it('reads a request clock time within the day only', () => {
    expect(parseClockTime('07:30')).toBe(7.5 * 3600);
    expect(parseClockTime('23:59:59')).toBe(86_399);
    for (const bad of ['24:00', '7:30', '07:30:60', '07-30', '07:30:00Z', '']) expect(parseClockTime(bad)).toBeNull();
  });

  it('reads real calendar dates only, and knows their weekday', () => {
    expect(parseIsoDate('2024-02-29')).toBe(parseGtfsDate('20240229'));
    expect(parseIsoDate('2023-02-29')).toBeNull();
    expect(parseIsoDate('2024-13-01')).toBeNull();
    expect(parseGtfsDate('2024-01-01')).toBeNull();
    expect(weekdayOf(parseIsoDate('2024-06-05')!)).toBe(2); // a Wednesday (Monday = 0)
    expect(weekdayOf(parseIsoDate('1969-12-29')!)).toBe(0);
  });

  it('turns a feed’s local day and seconds into an instant, in its time zone', () => {
    const day = parseIsoDate('2024-06-05')!;
    expect(new Date(instantOf(day, 8 * 3600, 'Africa/Accra')).toISOString()).toBe('2024-06-05T08:00:00.000Z');
    expect(new Date(instantOf(day, 8 * 3600, 'Africa/Nairobi')).toISOString()).toBe('2024-06-05T05:00:00.000Z');
    expect(new Date(instantOf(day, 25 * 3600, 'Africa/Lagos')).toISOString()).toBe('2024-06-06T00:00:00.000Z');
    expect(zoneOffsetMs(Date.UTC(2024, 5, 5), 'Not/AZone')).toBe(0);
    expect(localOf(Date.UTC(2024, 5, 5, 22, 30), 'Africa/Nairobi')).toEqual({ day: parseIsoDate('2024-06-06'), seconds: 1.5 * 3600 });
  });
});
