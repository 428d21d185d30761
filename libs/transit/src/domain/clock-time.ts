/**
 * Times as GTFS and the transit endpoints write them. A GTFS time is seconds
 * after "noon minus 12 h" of the service day, written H:MM:SS, and may pass
 * 24:00:00 for a trip that runs past midnight (25:10:00 is 01:10 the next
 * morning). A request's `time` is a clock time of the day (HH:MM[:SS], 00–23).
 */

const GTFS_TIME = /^\s*(\d{1,3}):([0-5]\d):([0-5]\d)\s*$/;
const CLOCK_TIME = /^([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d))?$/;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const GTFS_DATE = /^(\d{4})(\d{2})(\d{2})$/;

/** Trips longer than this many hours past the service day's start are taken as a typo, not a schedule. */
export const MAX_GTFS_HOURS = 72;

export const DAY_S = 86_400;

/** Seconds of a GTFS time, or null when it is not H:MM:SS (or implausibly far past midnight). */
export function parseGtfsTime(text: string): number | null {
  const match = GTFS_TIME.exec(text);
  if (!match) return null;
  const hours = Number(match[1]);
  if (hours >= MAX_GTFS_HOURS) return null;
  return hours * 3600 + Number(match[2]) * 60 + Number(match[3]);
}

/** Seconds of a request's clock time (HH:MM or HH:MM:SS), or null. */
export function parseClockTime(text: string): number | null {
  const match = CLOCK_TIME.exec(text);
  if (!match) return null;
  return Number(match[1]) * 3600 + Number(match[2]) * 60 + Number(match[3] ?? 0);
}

/** HH:MM:SS; past 24 h it keeps counting, as GTFS does (25:10:00). */
export function formatGtfsTime(seconds: number): string {
  const s = Math.round(seconds);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(Math.floor(s / 3600))}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
}

/**
 * A calendar day as a number of days since 1970-01-01 (UTC arithmetic: a day
 * is a label here, not an instant), so weekdays and "the day before" are plain
 * integer arithmetic.
 */
export type DayNumber = number;

/** YYYY-MM-DD (a request's `date`) → day number; null when it is no real date. */
export function parseIsoDate(text: string): DayNumber | null {
  const match = ISO_DATE.exec(text);
  return match ? dayOf(Number(match[1]), Number(match[2]), Number(match[3])) : null;
}

/** YYYYMMDD (GTFS) → day number; null when it is no real date. */
export function parseGtfsDate(text: string): DayNumber | null {
  const match = GTFS_DATE.exec(text.trim());
  return match ? dayOf(Number(match[1]), Number(match[2]), Number(match[3])) : null;
}

function dayOf(year: number, month: number, day: number): DayNumber | null {
  if (month < 1 || month > 12 || day < 1 || day > 31) return null;
  const ms = Date.UTC(year, month - 1, day);
  const date = new Date(ms);
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return ms / (DAY_S * 1000);
}

export function formatDay(day: DayNumber): string {
  return new Date(day * DAY_S * 1000).toISOString().slice(0, 10);
}

/** 0 = Monday … 6 = Sunday, the order of calendar.txt's columns. */
export function weekdayOf(day: DayNumber): number {
  // 1970-01-01 was a Thursday (3).
  return (((day + 3) % 7) + 7) % 7;
}

/**
 * Milliseconds a time zone is ahead of UTC at an instant (Africa/Accra: 0,
 * Africa/Nairobi: 3 h). Intl knows the IANA zones; an unknown name is UTC.
 */
export function zoneOffsetMs(instantMs: number, timeZone: string): number {
  let format = formats.get(timeZone);
  if (!format) {
    try {
      format = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' });
    } catch {
      format = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' });
    }
    formats.set(timeZone, format);
  }
  const parts: Record<string, number> = {};
  for (const part of format.formatToParts(new Date(instantMs))) if (part.type !== 'literal') parts[part.type] = Number(part.value);
  const asUtc = Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second);
  return asUtc - Math.floor(instantMs / 1000) * 1000;
}
const formats = new Map<string, Intl.DateTimeFormat>();

/** The instant of `seconds` after the start of local `day` in `timeZone` (GTFS: noon minus 12 h, the same outside DST changes). */
export function instantOf(day: DayNumber, seconds: number, timeZone: string): number {
  const noonUtc = day * DAY_S * 1000 + 12 * 3600_000;
  const startOfServiceDay = noonUtc - zoneOffsetMs(noonUtc, timeZone) - 12 * 3600_000;
  return startOfServiceDay + seconds * 1000;
}

/** The local calendar day and seconds since its midnight of an instant in `timeZone`. */
export function localOf(instantMs: number, timeZone: string): { day: DayNumber; seconds: number } {
  const local = instantMs + zoneOffsetMs(instantMs, timeZone);
  const day = Math.floor(local / (DAY_S * 1000));
  return { day, seconds: Math.floor((local - day * DAY_S * 1000) / 1000) };
}
