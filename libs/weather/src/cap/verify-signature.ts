import { createHash, createPublicKey, verify, X509Certificate, type KeyObject } from 'node:crypto';
import { XmlC14NMode, XmlElement, XmlText, XmlXPath, type XmlDocument, type C14NOptions } from 'libxml2-wasm';
import { parseCapDocument } from './cap-schema.js';
import { CapError } from './parse-cap.js';

const DSIG = 'http://www.w3.org/2000/09/xmldsig#';
const NS = { ds: DSIG, ec: 'http://www.w3.org/2001/10/xml-exc-c14n#' };
const ENVELOPED = 'http://www.w3.org/2000/09/xmldsig#enveloped-signature';

type C14n = { mode: C14NOptions['mode']; withComments: boolean };
/** Canonical XML 1.0, 1.1 and Exclusive 1.0, with and without comments: libxml2 implements all three. */
const CANONICALIZATIONS: Record<string, C14n> = {
  'http://www.w3.org/TR/2001/REC-xml-c14n-20010315': { mode: XmlC14NMode.XML_C14N_1_0, withComments: false },
  'http://www.w3.org/TR/2001/REC-xml-c14n-20010315#WithComments': { mode: XmlC14NMode.XML_C14N_1_0, withComments: true },
  'http://www.w3.org/2006/12/xml-c14n11': { mode: XmlC14NMode.XML_C14N_1_1, withComments: false },
  'http://www.w3.org/2006/12/xml-c14n11#WithComments': { mode: XmlC14NMode.XML_C14N_1_1, withComments: true },
  'http://www.w3.org/2001/10/xml-exc-c14n#': { mode: XmlC14NMode.XML_C14N_EXCLUSIVE_1_0, withComments: false },
  'http://www.w3.org/2001/10/xml-exc-c14n#WithComments': { mode: XmlC14NMode.XML_C14N_EXCLUSIVE_1_0, withComments: true },
};
/** Signature methods (RFC 6931): RSA PKCS#1 v1.5 and ECDSA (r‖s, as XML-DSig writes it) over SHA-2. SHA-1 is not accepted. */
const SIGNATURE_METHODS: Record<string, { hash: string; key: 'rsa' | 'ec' }> = {
  'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256': { hash: 'sha256', key: 'rsa' },
  'http://www.w3.org/2001/04/xmldsig-more#rsa-sha384': { hash: 'sha384', key: 'rsa' },
  'http://www.w3.org/2001/04/xmldsig-more#rsa-sha512': { hash: 'sha512', key: 'rsa' },
  'http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha256': { hash: 'sha256', key: 'ec' },
  'http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha384': { hash: 'sha384', key: 'ec' },
  'http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha512': { hash: 'sha512', key: 'ec' },
};
const DIGESTS: Record<string, string> = {
  'http://www.w3.org/2001/04/xmlenc#sha256': 'sha256',
  'http://www.w3.org/2001/04/xmldsig-more#sha384': 'sha384',
  'http://www.w3.org/2001/04/xmlenc#sha512': 'sha512',
};

export type SignatureCheck = { status: 'unsigned' } | { status: 'valid'; signer: string | null; normalised: boolean } | { status: 'unverifiable'; reason: string };

export class CapSignatureError extends CapError {}

/** What a supported signature says, read before anything is verified. */
interface SignaturePlan {
  signedInfo: C14n;
  method: { hash: string; key: 'rsa' | 'ec' };
  reference: C14n & { prefixes?: string[] };
  digest: { hash: string; value: string };
  signatureValue: Buffer;
  key: KeyObject;
  signer: string | null;
}

/** XPath expressions compiled once per process: compiling with namespaces costs more than evaluating. */
const compiled = new Map<string, XmlXPath>();
const xpath = (expression: string): XmlXPath => {
  let found = compiled.get(expression);
  if (!found) compiled.set(expression, (found = XmlXPath.compile(expression, NS)));
  return found;
};
const string = (node: XmlElement, path: string): string => String(node.eval(xpath(`string(${path})`))).trim();
const prefixList = (node: XmlElement | null): string[] | undefined => {
  const list = node?.attr('PrefixList')?.value.trim();
  return list ? list.split(/\s+/).map((prefix) => (prefix === '#default' ? '' : prefix)) : undefined;
};

/**
 * Checks the XML signature of a CAP message, when it has one
 * (docs/adr/0026). Supported: one enveloped signature, a child of <alert>,
 * with one Reference to the whole document (URI=""), Canonical XML 1.0, 1.1
 * or Exclusive 1.0, RSA or ECDSA over SHA-2, the key from KeyInfo (an X.509
 * certificate or an RSA key value). Canonicalization is libxml2's; digests
 * and signatures are node:crypto's.
 *
 * The document is checked as received first. When that fails it is checked
 * once more with whitespace-only text between elements removed and nothing
 * outside <alert> (the stylesheet instruction): publishers re-indent signed
 * CAP after signing (the WMO test alerts are signed compact, distributed
 * indented), and neither changes a value we read. A signature that verifies
 * neither way throws CapSignatureError; one outside the supported profile is
 * reported unverifiable and the message is kept, marked so.
 *
 * `document` is the parsed message; it is modified (the signature is taken
 * out to digest the rest), so the caller checks the schema first.
 */
export function verifyCapSignature(document: XmlDocument, xml: string): SignatureCheck {
  const signatures = document.find(xpath('//ds:Signature')) as XmlElement[];
  if (signatures.length === 0) return { status: 'unsigned' };
  const plan = planOf(signatures);
  if ('reason' in plan) return { status: 'unverifiable', reason: plan.reason };
  if (verifies(document, signatures[0], plan, false)) return { status: 'valid', signer: plan.signer, normalised: false };
  const normalised = parseCapDocument(xml);
  try {
    const signature = normalised.get(xpath('/*/ds:Signature')) as XmlElement;
    if (verifies(normalised, signature, plan, true)) return { status: 'valid', signer: plan.signer, normalised: true };
  } finally {
    normalised.dispose();
  }
  throw new CapSignatureError('CAP: the XML signature does not verify (the message was altered after signing, or signed with another key)');
}

/** Reads the signature's algorithms, reference and key; a reason when they fall outside the supported profile. */
function planOf(signatures: XmlElement[]): SignaturePlan | { reason: string } {
  if (signatures.length > 1) return { reason: 'more than one signature' };
  const [signature] = signatures;
  if (!signature.parent?.isSameNode(signature.doc.root)) return { reason: 'the signature is not a child of <alert>' };
  const signedInfo = CANONICALIZATIONS[string(signature, 'ds:SignedInfo/ds:CanonicalizationMethod/@Algorithm')];
  const methodUri = string(signature, 'ds:SignedInfo/ds:SignatureMethod/@Algorithm');
  const method = SIGNATURE_METHODS[methodUri];
  if (!signedInfo) return { reason: `unsupported canonicalization ${string(signature, 'ds:SignedInfo/ds:CanonicalizationMethod/@Algorithm')}` };
  if (!method) return { reason: `unsupported signature method ${methodUri}` };
  const references = signature.find(xpath('ds:SignedInfo/ds:Reference')) as XmlElement[];
  if (references.length !== 1) return { reason: `${references.length} references (one, to the whole document, is supported)` };
  const [reference] = references;
  if (reference.attr('URI')?.value !== '') return { reason: 'the reference is not to the whole document (URI="")' };
  const transforms = (reference.find(xpath('ds:Transforms/ds:Transform')) as XmlElement[]).map((transform) => transform.attr('Algorithm')?.value ?? '');
  const c14nTransforms = transforms.filter((transform) => transform !== ENVELOPED);
  if (!transforms.includes(ENVELOPED)) return { reason: 'the signature is not enveloped' };
  if (c14nTransforms.length > 1 || (c14nTransforms[0] && !CANONICALIZATIONS[c14nTransforms[0]])) return { reason: `unsupported transforms ${c14nTransforms.join(', ')}` };
  const digestHash = DIGESTS[string(reference, 'ds:DigestMethod/@Algorithm')];
  if (!digestHash) return { reason: `unsupported digest ${string(reference, 'ds:DigestMethod/@Algorithm')}` };
  const key = keyOf(signature);
  if ('reason' in key) return key;
  if (key.key.asymmetricKeyType !== method.key) throw new CapSignatureError(`CAP: the signature method ${methodUri} does not match the ${key.key.asymmetricKeyType} key in KeyInfo`);
  const c14nTransform = reference.get(xpath(`ds:Transforms/ds:Transform[@Algorithm!='${ENVELOPED}']`)) as XmlElement | null;
  return {
    signedInfo,
    method,
    // With no canonicalization transform the node set is serialized as Canonical XML 1.0; URI="" never keeps comments (XML-DSig 4.4.3.2).
    reference: { ...(CANONICALIZATIONS[c14nTransforms[0]] ?? CANONICALIZATIONS['http://www.w3.org/TR/2001/REC-xml-c14n-20010315']), withComments: false, prefixes: prefixList(c14nTransform?.get(xpath('ec:InclusiveNamespaces')) as XmlElement | null) },
    digest: { hash: digestHash, value: string(reference, 'ds:DigestValue').replace(/\s+/g, '') },
    signatureValue: Buffer.from(string(signature, 'ds:SignatureValue').replace(/\s+/g, ''), 'base64'),
    key: key.key,
    signer: key.signer,
  };
}

/** The verifying key: an X509Certificate in KeyInfo (its subject is the signer), or an RSAKeyValue. */
function keyOf(signature: XmlElement): { key: KeyObject; signer: string | null } | { reason: string } {
  const certificate = string(signature, 'ds:KeyInfo/ds:X509Data/ds:X509Certificate[1]').replace(/\s+/g, '');
  try {
    if (certificate) {
      const x509 = new X509Certificate(Buffer.from(certificate, 'base64'));
      return { key: x509.publicKey, signer: x509.subject.replace(/\n/g, ', ') };
    }
    const modulus = string(signature, 'ds:KeyInfo/ds:KeyValue/ds:RSAKeyValue/ds:Modulus').replace(/\s+/g, '');
    const exponent = string(signature, 'ds:KeyInfo/ds:KeyValue/ds:RSAKeyValue/ds:Exponent').replace(/\s+/g, '');
    if (!modulus || !exponent) return { reason: 'no X509Certificate or RSAKeyValue in KeyInfo' };
    const url = (base64: string) => Buffer.from(base64, 'base64').toString('base64url');
    return { key: createPublicKey({ key: { kty: 'RSA', n: url(modulus), e: url(exponent) }, format: 'jwk' }), signer: null };
  } catch (error) {
    throw new CapSignatureError(`CAP: the key in KeyInfo cannot be read (${(error as Error).message})`);
  }
}

/** Removes whitespace-only text nodes that sit between elements (indentation), everywhere below `element`. */
function stripIndentation(element: XmlElement): void {
  let hasElements = false;
  for (let child = element.firstChild; child; child = child.next) if (child instanceof XmlElement) hasElements = true;
  for (let child = element.firstChild; child; ) {
    const next = child.next;
    if (child instanceof XmlElement) stripIndentation(child);
    else if (hasElements && child instanceof XmlText && child.content.trim() === '') child.remove();
    child = next;
  }
}

/** SignedInfo's signature, then the document's digest without the signature (the enveloped-signature transform). */
function verifies(document: XmlDocument, signature: XmlElement, plan: SignaturePlan, normalised: boolean): boolean {
  if (normalised) stripIndentation(document.root);
  const signedInfo = signature.get(xpath('ds:SignedInfo')) as XmlElement;
  const canonicalSignedInfo = signedInfo.canonicalizeToString(plan.signedInfo);
  const method = plan.method.key === 'ec' ? { key: plan.key, dsaEncoding: 'ieee-p1363' as const } : plan.key;
  if (!verify(plan.method.hash, Buffer.from(canonicalSignedInfo, 'utf8'), method, plan.signatureValue)) return false;
  signature.remove();
  const options = { mode: plan.reference.mode, withComments: false, inclusiveNamespacePrefixes: plan.reference.prefixes };
  // As received, URI="" is the whole document, instructions outside <alert> included; normalised, <alert> alone.
  const canonical = normalised ? document.root.canonicalizeToString(options) : document.canonicalizeToString(options);
  return createHash(plan.digest.hash).update(canonical, 'utf8').digest('base64') === plan.digest.value;
}
