import { parseCap, type CapAlert } from './parse-cap.js';
import { verifyCapSignature } from './verify-signature.js';

/** One CAP document checked end to end: well-formed, CAP 1.2 valid, signature verified when present. Throws CapError. */
export function readCap(xml: string): CapAlert {
  const alert = parseCap(xml);
  const check = verifyCapSignature(xml);
  return { ...alert, signature: check.status };
}
