import type { Decider } from '../../../platform/src/commands/decider.js';
import { InvalidParamError } from '../../../platform/src/errors.js';
import { greatCircleM, isLatitude, isLongitude } from '../../../platform/src/geo/geodesy.js';
import { ReporterGroups } from '../../../platform/src/ids/reporters.js';

/** interface.md, POST /v2/route/incidents. */
export const HAZARD_KINDS = ['accident', 'flooding', 'road_blocked', 'police'] as const;
export type HazardKind = (typeof HAZARD_KINDS)[number];

/**
 * How long a report stays live (docs/adr/0025), hours: a police check moves on
 * within hours, an accident is cleared in a few, water stays half a day, a
 * blocked road a day. Each new distinct reporter restarts the clock from its
 * own report (corroboration extends the life).
 */
export const HAZARD_LIFETIME_H: Record<HazardKind, number> = { police: 2, accident: 3, flooding: 12, road_blocked: 24 };
/** Reports of one kind within this distance of a live incident merge into it. */
export const HAZARD_MERGE_RADIUS_M = 150;
/** Around a blocking incident, roads within this distance are closed to routes that avoid incidents. */
export const HAZARD_BLOCK_RADIUS_M = 40;
/** Distinct reporters a flooding or road_blocked incident needs before it closes roads. */
export const HAZARD_BLOCK_CORROBORATIONS = 2;
export const HAZARD_NOTE_MAX = 280;

export interface HazardReported {
  type: 'HazardReported';
  data: {
    report_id: string;
    kind: HazardKind;
    lat: number;
    lng: number;
    note: string | null;
    /** The account's keyed hash when a valid key was sent, else the client IP's (as before issue 31). */
    reporter: string;
    /** Every identity of the sender: the IP's keyed hash and, with a key, the account's (ReporterGroups). Absent in reports stored before issue 31: then `[reporter]`. */
    reporter_ids?: string[];
    reported_at: string;
  };
}
export type HazardEvent = HazardReported;
export const HAZARD_EVENT_TYPES = ['HazardReported'] as const;

export interface ReportHazard {
  type: 'ReportHazard';
  report_id: string;
  kind: unknown;
  lat: unknown;
  lng: unknown;
  note?: unknown;
  reporter: string;
  reporter_ids?: string[];
}

export interface HazardReportState {
  reported: boolean;
}

export function hazardStream(reportId: string): string {
  return `traffic_hazard-${reportId}`;
}

export function isHazardKind(kind: unknown): kind is HazardKind {
  return typeof kind === 'string' && (HAZARD_KINDS as readonly string[]).includes(kind);
}

/** One report, one stream: merging is the incident board's (a projection of every report, in log order). */
export const hazardReportDecider: Decider<ReportHazard, HazardReportState, HazardEvent> = {
  initialState: { reported: false },
  evolve: () => ({ reported: true }),
  decide(command, state, now) {
    if (state.reported) return [];
    if (!isHazardKind(command.kind)) throw new InvalidParamError(`kind must be one of ${HAZARD_KINDS.join(', ')}`, 'kind');
    if (!isLatitude(command.lat)) throw new InvalidParamError('lat must be a number in [-90, 90]', 'lat');
    if (!isLongitude(command.lng)) throw new InvalidParamError('lng must be a number in [-180, 180]', 'lng');
    if (command.note !== undefined && command.note !== null && (typeof command.note !== 'string' || command.note.length > HAZARD_NOTE_MAX)) {
      throw new InvalidParamError(`note must be a string of at most ${HAZARD_NOTE_MAX} characters`, 'note');
    }
    const note = typeof command.note === 'string' && command.note.trim() !== '' ? command.note.trim() : null;
    return [{ type: 'HazardReported', data: { report_id: command.report_id, kind: command.kind, lat: command.lat, lng: command.lng, note, reporter: command.reporter, ...(command.reporter_ids ? { reporter_ids: command.reporter_ids } : {}), reported_at: now.toISOString() } }];
  },
};

export interface Incident {
  id: string;
  kind: HazardKind;
  lat: number;
  lng: number;
  note: string | null;
  corroborations: number;
  first_reported_at: string;
  last_reported_at: string;
  expires_at: string;
}

const HOUR_MS = 3_600_000;

/**
 * The live incidents, folded from every HazardReported in log order (a pure
 * projection: the same log gives the same board). A report joins the nearest
 * incident of its kind still live at its time within HAZARD_MERGE_RADIUS_M;
 * a reporter counts once per incident, and reports sharing an IP or an account
 * are one reporter (ReporterGroups, ADR 0034).
 */
export class IncidentBoard {
  private readonly incidents: Array<Incident & { reporters: ReporterGroups; expiresMs: number }> = [];

  apply(report: HazardReported['data']): void {
    const at = Date.parse(report.reported_at);
    this.prune(at);
    let match: (typeof this.incidents)[number] | undefined;
    let best = Infinity;
    for (const incident of this.incidents) {
      if (incident.kind !== report.kind || incident.expiresMs <= at) continue;
      const distance = greatCircleM(incident.lat, incident.lng, report.lat, report.lng);
      if (distance <= HAZARD_MERGE_RADIUS_M && distance < best) {
        best = distance;
        match = incident;
      }
    }
    const expires = new Date(at + HAZARD_LIFETIME_H[report.kind] * HOUR_MS).toISOString();
    const identities = report.reporter_ids && report.reporter_ids.length > 0 ? report.reporter_ids : [report.reporter];
    if (!match) {
      const reporters = new ReporterGroups();
      reporters.add(identities);
      this.incidents.push({ id: `inc_${report.report_id}`, kind: report.kind, lat: report.lat, lng: report.lng, note: report.note, corroborations: 1, first_reported_at: report.reported_at, last_reported_at: report.reported_at, expires_at: expires, reporters, expiresMs: Date.parse(expires) });
      return;
    }
    const fresh = match.reporters.add(identities);
    // A report may join two reporters into one (an IP seen alone, then with the key of an account seen elsewhere).
    match.corroborations = match.reporters.count;
    if (!fresh) return;
    match.last_reported_at = report.reported_at;
    if (expires > match.expires_at) {
      match.expires_at = expires;
      match.expiresMs = Date.parse(expires);
    }
    match.note ??= report.note;
  }

  /** Live at `at`, oldest first. */
  active(at: Date): Incident[] {
    const now = at.getTime();
    return this.incidents.filter((incident) => incident.expiresMs > now).map(({ reporters: _reporters, expiresMs: _expiresMs, ...incident }) => ({ ...incident }));
  }

  /** Forgets incidents expired long before `at` (a day), so the board stays the size of what is live. */
  private prune(at: number): void {
    for (let i = this.incidents.length - 1; i >= 0; i--) if (this.incidents[i].expiresMs < at - 24 * HOUR_MS) this.incidents.splice(i, 1);
  }
}

export function blocksRoads(incident: Incident): boolean {
  return (incident.kind === 'flooding' || incident.kind === 'road_blocked') && incident.corroborations >= HAZARD_BLOCK_CORROBORATIONS;
}
