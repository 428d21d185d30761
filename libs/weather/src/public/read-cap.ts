import { XmlElement, XmlError } from 'libxml2-wasm';
import { parseCapDocument, validateCapSchema } from '../cap/cap-schema.js';
import { CAP_LISTS, CapError, capOf, checkCapText, type CapAlert } from '../cap/parse-cap.js';
import { verifyCapSignature } from '../cap/verify-signature.js';

/**
 * One CAP document checked end to end (docs/adr/0026): size and no DTD,
 * well-formed, valid against the CAP 1.2 XML schema, its signature verified
 * when present, then read from the same parsed document (capOf, with the
 * checks the schema cannot express: closed polygons, circles, references on
 * Update/Cancel). Throws CapError (CapSignatureError for a signature that
 * does not verify).
 */
export function readCap(xml: string): CapAlert {
  checkCapText(xml);
  const document = parseCapDocument(xml);
  try {
    validateCapSchema(document);
    const fields = treeOf(document.root);
    const check = verifyCapSignature(document, xml);
    return { ...capOf(fields, false), signature: check.status };
  } catch (error) {
    // libxml2 failing on a document (a canonicalization it cannot do) refuses that document, never the import.
    if (error instanceof XmlError && !(error instanceof CapError)) throw new CapError(`CAP: ${error.message}`);
    throw error;
  } finally {
    document.dispose();
  }
}

/** An element as the plain tree capOf reads: child local name → trimmed text, or a tree when it has child elements; CAP_LISTS as lists. */
function treeOf(element: XmlElement): Record<string, unknown> {
  const tree: Record<string, unknown> = {};
  for (let child = element.firstChild; child; child = child.next) {
    if (!(child instanceof XmlElement)) continue;
    let nested = false;
    for (let grandchild = child.firstChild; grandchild && !nested; grandchild = grandchild.next) nested = grandchild instanceof XmlElement;
    const value = nested ? treeOf(child) : child.content.trim();
    if (CAP_LISTS.has(child.name)) ((tree[child.name] ??= []) as unknown[]).push(value);
    else if (!(child.name in tree)) tree[child.name] = value;
  }
  return tree;
}
