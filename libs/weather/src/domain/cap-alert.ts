// The fields kept of a CAP 1.2 message: plain data, read by cap/parse-cap.ts and recorded as events (domain/cap-alerts.ts).

/** One CAP 1.2 alert area as GeoJSON: polygons as rings ([lng, lat]), circles as polygons of 32 points. */
export interface AlertArea {
  description: string;
  geometry: { type: 'MultiPolygon'; coordinates: Array<Array<Array<[number, number]>>> } | null;
}

/** What we keep of one CAP `<info>` (the first, or the English one when there are several). */
export interface CapAlert {
  identifier: string;
  sender: string;
  sent: string;
  status: string;
  msgType: 'Alert' | 'Update' | 'Cancel' | 'Ack' | 'Error';
  /** `sender,identifier,sent` triples this message updates or cancels. */
  references: Array<{ sender: string; identifier: string }>;
  event: string;
  category: string[];
  urgency: string;
  severity: string;
  certainty: string;
  headline: string | null;
  instruction: string | null;
  effective: string | null;
  expires: string | null;
  areas: AlertArea[];
  /** The XML signature: none, verified, or present but outside the profile we verify (cap/verify-signature.ts). */
  signature: 'unsigned' | 'valid' | 'unverifiable';
}
