import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type { AlertArea, CapAlert } from '../domain/cap-alert.js';

export type { AlertArea, CapAlert };

export class CapError extends Error {}

const CAP_NS = 'urn:oasis:names:tc:emergency:cap:1.2';
/** The root <alert> (prefixed or not) declares the CAP 1.2 namespace for its own prefix. */
const ROOT_IN_CAP_NS = new RegExp(`<(?:([A-Za-z_][\\w.-]*):)?alert\\b[^>]*\\bxmlns(?::\\1)?\\s*=\\s*["']${CAP_NS.replace(/[.:]/g, '\\$&')}["']`);
const MSG_TYPES = new Set(['Alert', 'Update', 'Cancel', 'Ack', 'Error']);
const STATUSES = new Set(['Actual', 'Exercise', 'System', 'Test', 'Draft']);
const SCOPES = new Set(['Public', 'Restricted', 'Private']);
const URGENCIES = new Set(['Immediate', 'Expected', 'Future', 'Past', 'Unknown']);
const SEVERITIES = new Set(['Extreme', 'Severe', 'Moderate', 'Minor', 'Unknown']);
const CERTAINTIES = new Set(['Observed', 'Likely', 'Possible', 'Unlikely', 'Unknown', 'Very Likely']);
const CATEGORIES = new Set(['Geo', 'Met', 'Safety', 'Security', 'Rescue', 'Fire', 'Health', 'Env', 'Transport', 'Infra', 'CBRNE', 'Other']);
/** CAP 1.2 dateTime: no fractional seconds, an explicit offset (the schema's pattern). */
const CAP_DATE = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d([+-]\d\d:\d\d)$/;
/** A CAP document larger than this is refused before parsing. */
export const MAX_CAP_BYTES = 2 * 1024 * 1024;

/** CAP elements that may repeat: always lists in the tree capOf reads. */
export const CAP_LISTS = new Set(['info', 'area', 'polygon', 'circle', 'category', 'eventCode', 'parameter', 'resource', 'geocode', 'responseType', 'code']);

const parser = new XMLParser({
  ignoreAttributes: false,
  removeNSPrefix: true,
  parseTagValue: false,
  trimValues: true,
  processEntities: true,
  isArray: (name) => CAP_LISTS.has(name),
});

const text = (value: unknown): string | null => {
  if (value === undefined || value === null) return null;
  if (typeof value === 'object') return text((value as Record<string, unknown>)['#text']);
  const string = String(value).trim();
  return string === '' ? null : string;
};

function required(node: Record<string, unknown>, name: string): string {
  const value = text(node[name]);
  if (value === null) throw new CapError(`CAP: <${name}> is required`);
  return value;
}

function oneOf(node: Record<string, unknown>, name: string, allowed: Set<string>): string {
  const value = required(node, name);
  if (!allowed.has(value)) throw new CapError(`CAP: <${name}> "${value}" is not one of ${[...allowed].join(', ')}`);
  return value;
}

function date(node: Record<string, unknown>, name: string, needed = false): string | null {
  const value = needed ? required(node, name) : text(node[name]);
  if (value === null) return null;
  if (!CAP_DATE.test(value) || Number.isNaN(Date.parse(value))) throw new CapError(`CAP: <${name}> "${value}" is not a CAP dateTime`);
  return new Date(value).toISOString();
}

/** CAP points are "lat,lon" pairs separated by spaces; GeoJSON wants [lng, lat]. */
function pointsOf(value: string): Array<[number, number]> {
  return value
    .split(/\s+/)
    .filter(Boolean)
    .map((pair) => {
      const [lat, lng] = pair.split(',').map(Number);
      if (!Number.isFinite(lat) || !Number.isFinite(lng) || Math.abs(lat) > 90 || Math.abs(lng) > 180) throw new CapError(`CAP: bad coordinate pair "${pair}"`);
      return [lng, lat] as [number, number];
    });
}

function polygonOf(value: string): Array<[number, number]> {
  const ring = pointsOf(value);
  if (ring.length < 4) throw new CapError('CAP: a <polygon> needs at least 4 points');
  const [first, last] = [ring[0], ring[ring.length - 1]];
  if (first[0] !== last[0] || first[1] !== last[1]) throw new CapError('CAP: a <polygon> must be closed (first point = last point)');
  return ring;
}

/** A CAP circle "lat,lon radius_km" as a 32-point polygon. */
export function circleOf(value: string): Array<[number, number]> {
  const [centre, radius] = value.trim().split(/\s+/);
  const [[lng, lat]] = pointsOf(centre ?? '');
  const km = Number(radius);
  if (!Number.isFinite(km) || km < 0) throw new CapError(`CAP: bad circle radius "${radius}"`);
  const ring: Array<[number, number]> = [];
  const dLat = km / 111.32;
  const dLng = km / (111.32 * Math.max(Math.cos((lat * Math.PI) / 180), 1e-6));
  for (let index = 0; index < 32; index++) {
    const angle = (index / 32) * 2 * Math.PI;
    ring.push([lng + dLng * Math.cos(angle), lat + dLat * Math.sin(angle)]);
  }
  ring.push(ring[0]);
  return ring;
}

/** Refuses, before any parser sees it, a document over MAX_CAP_BYTES or one with a DTD or entity declarations (no entity expansion, no external fetch). */
export function checkCapText(xml: string): void {
  if (Buffer.byteLength(xml) > MAX_CAP_BYTES) throw new CapError(`CAP: document larger than ${MAX_CAP_BYTES} bytes`);
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) throw new CapError('CAP: DTDs and entity declarations are refused');
}

/**
 * Parses and validates one CAP 1.2 document. The validation is structural:
 * the elements, enumerations and dateTime pattern the CAP 1.2 schema
 * requires, written from the CAP 1.2 specification. readCap (read-cap.ts)
 * runs the XML schema itself before this; these checks stay so that a
 * document read on its own is never half-checked. Throws CapError.
 */
export function parseCap(xml: string): CapAlert {
  checkCapText(xml);
  const wellFormed = XMLValidator.validate(xml);
  if (wellFormed !== true) throw new CapError(`CAP: not well-formed XML (${wellFormed.err.msg}, line ${wellFormed.err.line})`);
  const document = parser.parse(xml) as Record<string, unknown>;
  const alert = document.alert as Record<string, unknown> | undefined;
  if (!alert || typeof alert !== 'object') throw new CapError('CAP: the root element must be <alert>');
  if (!ROOT_IN_CAP_NS.test(xml)) throw new CapError(`CAP: the <alert> namespace must be ${CAP_NS}`);
  return capOf(alert, 'Signature' in alert);
}

/**
 * The fields we keep, from the <alert> element as a plain tree (child local
 * name → text, or a tree, or a list for CAP_LISTS), with the checks above.
 * parseCap builds the tree with fast-xml-parser; readCap from the libxml2
 * document it has already parsed and validated (read-cap.ts).
 */
export function capOf(alert: Record<string, unknown>, signed: boolean): CapAlert {
  const identifier = required(alert, 'identifier');
  const sender = required(alert, 'sender');
  const sent = date(alert, 'sent', true)!;
  const status = oneOf(alert, 'status', STATUSES);
  const msgType = oneOf(alert, 'msgType', MSG_TYPES) as CapAlert['msgType'];
  oneOf(alert, 'scope', SCOPES);
  const references = (text(alert.references) ?? '')
    .split(/\s+/)
    .filter(Boolean)
    .map((triple) => {
      const [refSender, refIdentifier] = triple.split(',');
      if (!refSender || !refIdentifier) throw new CapError(`CAP: bad <references> entry "${triple}"`);
      return { sender: refSender, identifier: refIdentifier };
    });
  if ((msgType === 'Update' || msgType === 'Cancel') && references.length === 0) throw new CapError(`CAP: a ${msgType} needs <references>`);
  const infos = (alert.info as Array<Record<string, unknown>> | undefined) ?? [];
  if (infos.length === 0 && msgType !== 'Cancel') throw new CapError('CAP: no <info> block');
  const info = infos.find((candidate) => /^en/i.test(text(candidate.language) ?? '')) ?? infos[0] ?? {};
  for (const candidate of infos) {
    for (const name of ['event', 'urgency', 'severity', 'certainty']) required(candidate, name);
    for (const category of (candidate.category as unknown[]) ?? []) {
      if (!CATEGORIES.has(text(category) ?? '')) throw new CapError(`CAP: <category> "${text(category)}" is not a CAP category`);
    }
    if (((candidate.category as unknown[]) ?? []).length === 0) throw new CapError('CAP: <info> needs a <category>');
  }
  const areas = ((info.area as Array<Record<string, unknown>> | undefined) ?? []).map((area): AlertArea => {
    const description = required(area, 'areaDesc');
    const rings = [
      ...((area.polygon as unknown[]) ?? []).map((polygon) => polygonOf(text(polygon) ?? '')),
      ...((area.circle as unknown[]) ?? []).map((circle) => circleOf(text(circle) ?? '')),
    ];
    return { description, geometry: rings.length ? { type: 'MultiPolygon', coordinates: rings.map((ring) => [ring]) } : null };
  });
  return {
    identifier,
    sender,
    sent,
    status,
    msgType,
    references,
    event: infos.length ? required(info, 'event') : 'Cancel',
    category: ((info.category as unknown[]) ?? []).map((category) => text(category)!),
    urgency: infos.length ? oneOf(info, 'urgency', URGENCIES) : 'Unknown',
    severity: infos.length ? oneOf(info, 'severity', SEVERITIES) : 'Unknown',
    certainty: infos.length ? oneOf(info, 'certainty', CERTAINTIES) : 'Unknown',
    headline: text(info.headline),
    instruction: text(info.instruction),
    effective: date(info, 'effective'),
    expires: date(info, 'expires'),
    areas,
    signature: signed ? 'unverifiable' : 'unsigned',
  };
}
