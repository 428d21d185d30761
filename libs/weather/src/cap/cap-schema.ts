import { ParseOption, XmlDocument, XmlLibError, XsdValidator } from 'libxml2-wasm';
import { CAP_1_2_XSD } from './cap-1.2.xsd.js';
import { CapError } from './parse-cap.js';

const CAP_NS = /\{urn:oasis:names:tc:emergency:cap:1\.2\}/g;
/** No network, no entity substitution, no DTD loading (DTDs are refused before parsing anyway). */
const PARSE = { option: ParseOption.XML_PARSE_NONET };

let validator: XsdValidator | null = null;

/** The compiled CAP 1.2 schema, built once per process (about 50 ms, on first use). */
function capSchema(): XsdValidator {
  validator ??= XsdValidator.fromDoc(XmlDocument.fromString(CAP_1_2_XSD, PARSE));
  return validator;
}

/** The first diagnostic of a libxml2 error, with its line and the CAP namespace shortened to `cap:`. */
function reasonOf(error: unknown): string {
  if (!(error instanceof XmlLibError)) return (error as Error).message;
  const [first] = error.details ?? [];
  const message = (first?.message ?? error.message).trim().replace(CAP_NS, 'cap:');
  return first?.line ? `line ${first.line}: ${message}` : message;
}

/** Parses a CAP document with libxml2 (WebAssembly); the caller disposes it. Throws CapError when it is not well-formed. */
export function parseCapDocument(xml: string): XmlDocument {
  try {
    return XmlDocument.fromString(xml, PARSE);
  } catch (error) {
    throw new CapError(`CAP: not well-formed XML (${reasonOf(error)})`);
  }
}

/**
 * Validates a parsed document against the CAP 1.2 XML schema (cap-1.2.xsd.ts)
 * with libxml2's XSD engine. Throws CapError naming the first violation and
 * its line, e.g. `CAP schema: line 6: Element 'cap:status': [facet
 * 'enumeration'] The value 'Real' is not an element of the set {...}`.
 */
export function validateCapSchema(document: XmlDocument): void {
  try {
    capSchema().validate(document);
  } catch (error) {
    throw new CapError(`CAP schema: ${reasonOf(error)}`);
  }
}
