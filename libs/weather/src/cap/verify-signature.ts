import { createPublicKey } from 'node:crypto';
import { DOMParser } from '@xmldom/xmldom';
import { SignedXml } from 'xml-crypto';
import { CapError } from './parse-cap.js';

const DSIG = 'http://www.w3.org/2000/09/xmldsig#';

export type SignatureCheck = { status: 'unsigned' } | { status: 'valid' } | { status: 'unverifiable'; reason: string };

export class CapSignatureError extends CapError {}

/**
 * Checks the enveloped XML signature of a CAP message, when there is one,
 * with xml-crypto against the certificate in its KeyInfo (docs/adr/0026). A
 * signature that does not verify throws CapSignatureError (the message is
 * refused); one using algorithms xml-crypto does not implement (ECDSA,
 * Canonical XML 1.1, as the WMO test alerts use) is reported unverifiable and
 * the message is kept, marked so.
 */
export function verifyCapSignature(xml: string): SignatureCheck {
  const errors: string[] = [];
  const document = new DOMParser({ onError: (level: string, message: string) => { if (level !== 'warning') errors.push(message); } }).parseFromString(xml, 'text/xml');
  if (errors.length) throw new CapError(`CAP: ${errors[0]}`);
  const signatures = document.getElementsByTagNameNS(DSIG, 'Signature');
  if (signatures.length === 0) return { status: 'unsigned' };
  if (signatures.length > 1) return { status: 'unverifiable', reason: 'more than one signature' };
  const signature = signatures[0];
  const probe = new SignedXml();
  const supported = new Set([...Object.keys(probe.SignatureAlgorithms ?? {}), ...Object.keys(probe.CanonicalizationAlgorithms ?? {})]);
  const algorithms = ['SignatureMethod', 'CanonicalizationMethod', 'Transform'].flatMap((name) =>
    Array.from(signature.getElementsByTagNameNS(DSIG, name)).map((node) => (node as unknown as { getAttribute(name: string): string | null }).getAttribute('Algorithm') ?? ''),
  );
  const missing = algorithms.filter((algorithm) => !supported.has(algorithm));
  const [method] = Array.from(signature.getElementsByTagNameNS(DSIG, 'SignatureMethod')).map((node) => (node as unknown as { getAttribute(name: string): string | null }).getAttribute('Algorithm') ?? '');
  if (missing.length) return { status: 'unverifiable', reason: `unsupported algorithm(s): ${[...new Set(missing)].join(', ')}` };
  if (!method) throw new CapSignatureError('CAP: the signature has no SignatureMethod');
  const verifier = new SignedXml({ getCertFromKeyInfo: keyOf });
  let valid = false;
  try {
    verifier.loadSignature(signature as unknown as Parameters<SignedXml['loadSignature']>[0]);
    valid = verifier.checkSignature(xml);
  } catch (error) {
    throw new CapSignatureError(`CAP: the XML signature does not verify (${(error as Error).message})`);
  }
  if (!valid) throw new CapSignatureError('CAP: the XML signature does not verify');
  return { status: 'valid' };
}

type KeyInfoNode = Parameters<typeof SignedXml.getCertFromKeyInfo>[0];

/** The verifying key: an X509Certificate in KeyInfo, or an RSAKeyValue (modulus and exponent). */
function keyOf(keyInfo?: KeyInfoNode): string | null {
  const certificate = SignedXml.getCertFromKeyInfo(keyInfo);
  if (certificate) return certificate;
  const element = keyInfo as unknown as { getElementsByTagNameNS(ns: string, name: string): ArrayLike<{ textContent: string | null }> } | null | undefined;
  if (!element) return null;
  const modulus = element.getElementsByTagNameNS(DSIG, 'Modulus')[0]?.textContent?.replace(/\s+/g, '');
  const exponent = element.getElementsByTagNameNS(DSIG, 'Exponent')[0]?.textContent?.replace(/\s+/g, '');
  if (!modulus || !exponent) return null;
  const url = (base64: string) => Buffer.from(base64, 'base64').toString('base64url');
  return createPublicKey({ key: { kty: 'RSA', n: url(modulus), e: url(exponent) }, format: 'jwk' }).export({ type: 'spki', format: 'pem' }).toString();
}
