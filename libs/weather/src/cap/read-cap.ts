import { parseCapDocument, validateCapSchema } from './cap-schema.js';
import { checkCapText, parseCap, type CapAlert } from './parse-cap.js';
import { verifyCapSignature } from './verify-signature.js';

/**
 * One CAP document checked end to end (docs/adr/0026): size and no DTD,
 * well-formed, valid against the CAP 1.2 XML schema, its signature verified
 * when present, then read (with the checks the schema cannot express:
 * closed polygons, circles, references on Update/Cancel). Throws CapError
 * (CapSignatureError for a signature that does not verify).
 */
export function readCap(xml: string): CapAlert {
  checkCapText(xml);
  const document = parseCapDocument(xml);
  try {
    validateCapSchema(document);
    const check = verifyCapSignature(document, xml);
    return { ...parseCap(xml), signature: check.status };
  } finally {
    document.dispose();
  }
}
