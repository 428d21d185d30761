import { generateKeyPairSync } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { SignedXml } from 'xml-crypto';
import { AlertBook, alertCovers, alertFeature } from '../alerts/alert-book.js';
import { capAlert } from '../__fixtures__/cap-fixtures.js';
import { CapError, parseCap } from './parse-cap.js';
import { readCap } from '../public/read-cap.js';
import { parseCapDocument } from './cap-schema.js';
import { CapSignatureError, verifyCapSignature } from './verify-signature.js';

const SHARED = path.resolve(import.meta.dirname, '../../../../../shared/data/cap');
const accra = { lat: 5.6037, lng: -0.187 };

/** Signs a CAP document with xml-crypto (an implementation independent of ours): enveloped, URI="", exclusive c14n, RSA-SHA256, a throwaway key whose public half is in KeyInfo as an RSAKeyValue. */
function sign(xml: string): string {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = publicKey.export({ format: 'jwk' }) as { n: string; e: string };
  const b64 = (value: string) => Buffer.from(value, 'base64url').toString('base64');
  const signer = new SignedXml({
    privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
    getKeyInfoContent: (args) => {
      const prefix = args?.prefix;
      const p = prefix ? `${prefix}:` : '';
      return `<${p}KeyValue><${p}RSAKeyValue><${p}Modulus>${b64(jwk.n)}</${p}Modulus><${p}Exponent>${b64(jwk.e)}</${p}Exponent></${p}RSAKeyValue></${p}KeyValue>`;
    },
  });
  signer.addReference({
    xpath: "/*[local-name(.)='alert']",
    isEmptyUri: true,
    transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'],
    digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
  });
  signer.computeSignature(xml);
  return signer.getSignedXml();
}

describe('CAP 1.2 alerts', () => {
  it('parse into GeoJSON: polygons as [lng, lat] rings, circles as closed 32-point polygons', () => {
    const alert = parseCap(capAlert({ circle: '5.60,-0.20 10' }));
    expect(alert).toMatchObject({ identifier: 'GH-2026-001', event: 'Flood', severity: 'Severe', urgency: 'Immediate', certainty: 'Likely', expires: '2026-11-23T18:00:00.000Z', signature: 'unsigned' });
    const [polygon, circle] = alert.areas[0].geometry!.coordinates;
    expect(polygon[0][0]).toEqual([-0.3, 5.5]);
    expect(circle[0]).toHaveLength(33);
    expect(circle[0][0]).toEqual(circle[0][32]);
    // 10 km east of the centre, on the ring.
    expect(circle[0][0][1]).toBeCloseTo(5.6, 6);
    expect((circle[0][0][0] + 0.2) * 111.32 * Math.cos((5.6 * Math.PI) / 180)).toBeCloseTo(10, 3);
    expect(alertCovers(alert, [accra.lng, accra.lat])).toBe(true);
    expect(alertCovers(alert, [1.22, 6.13])).toBe(false);
    expect(alertFeature(alert)).toMatchObject({ type: 'Feature', geometry: { type: 'MultiPolygon' }, properties: { event: 'Flood', instruction: 'Avoid low-lying roads and fords.' } });
  });

  it('are validated against the CAP 1.2 structure: required elements, enumerations, dateTimes, closed polygons, no DTDs', () => {
    const bad = [
      capAlert().replace('<status>Actual</status>', '<status>Real</status>'),
      capAlert().replace(/<sender>.*<\/sender>/, ''),
      capAlert().replace('urn:oasis:names:tc:emergency:cap:1.2', 'urn:oasis:names:tc:emergency:cap:1.1'),
      capAlert({ expires: '2026-11-23 18:00' }),
      capAlert({ polygon: '5.5,-0.3 5.5,-0.1 5.7,-0.1 5.7,-0.3' }),
      capAlert({ msgType: 'Update' }),
      capAlert().replace('<severity>Severe</severity>', '<severity>Bad</severity>'),
      '<!DOCTYPE x [<!ENTITY a "b">]>' + capAlert(),
      capAlert().replace('</alert>', ''),
    ];
    for (const xml of bad) expect(() => parseCap(xml)).toThrow(CapError);
  });

  it('drop out past expires; an update replaces its predecessor and a cancel removes it', () => {
    const first = parseCap(capAlert({ identifier: 'A1', event: 'Heavy Rain' }));
    const update = parseCap(capAlert({ identifier: 'A2', msgType: 'Update', references: 'gmet@meteo.gov.gh,A1,2026-11-23T12:00:00+00:00', event: 'Flood', sent: '2026-11-23T13:00:00+00:00', expires: '2026-11-23T20:00:00+00:00' }));
    const book = new AlertBook([first]);
    expect(book.active(new Date('2026-11-23T12:30:00Z')).map((alert) => alert.identifier)).toEqual(['A1']);
    expect(book.active(new Date('2026-11-23T18:30:00Z'))).toEqual([]);
    book.add(update);
    expect(book.active(new Date('2026-11-23T12:30:00Z')).map((alert) => [alert.identifier, alert.event])).toEqual([['A2', 'Flood']]);
    // A late copy of the replaced alert does not come back.
    expect(book.add(first)).toBe(false);
    book.add(parseCap(capAlert({ identifier: 'A3', msgType: 'Cancel', references: 'gmet@meteo.gov.gh,A2,2026-11-23T13:00:00+00:00' })));
    expect(book.active(new Date('2026-11-23T12:30:00Z'))).toEqual([]);
  });

  it('are validated against the CAP 1.2 XML schema: what the schema refuses is refused with the element and line', () => {
    const missingIdentifier = capAlert().replace(/<identifier>.*<\/identifier>/, '');
    expect(() => readCap(missingIdentifier)).toThrow(/^CAP schema: line 4: Element 'cap:sender': This element is not expected\. Expected is \( cap:identifier \)/);
    expect(() => readCap(capAlert().replace('<status>Actual</status>', '<status>Real</status>'))).toThrow(/^CAP schema: line 6: Element 'cap:status': .*'Real'/);
    // What only the schema sees: elements out of order, an element CAP does not define, a bad responseType or size.
    const outOfOrder = capAlert().replace('<msgType>Alert</msgType>\n  <scope>Public</scope>', '<scope>Public</scope>\n  <msgType>Alert</msgType>');
    const unknown = capAlert().replace('<language>en</language>', '<language>en</language>\n    <colour>red</colour>');
    const response = capAlert().replace('<event>Flood</event>', '<event>Flood</event>\n    <responseType>Run</responseType>');
    for (const xml of [outOfOrder, unknown, response]) {
      expect(() => parseCap(xml)).not.toThrow();
      expect(() => readCap(xml)).toThrow(/^CAP schema: /);
    }
    expect(readCap(capAlert()).identifier).toBe('GH-2026-001');
  });

  it('verify a signature when present: a good one passes, a tampered copy is refused', () => {
    const signed = sign(capAlert());
    expect(readCap(signed).signature).toBe('valid');
    const tampered = signed.replace('<severity>Severe</severity>', '<severity>Minor</severity>');
    expect(() => readCap(tampered)).toThrow(CapSignatureError);
    const forged = signed.replace(/<(\w+:)?SignatureValue>[^<]{10}/, (match) => match.slice(0, -10) + 'AAAAAAAAAA');
    expect(() => readCap(forged)).toThrow(CapSignatureError);
    // Outside the supported profile (SHA-1): kept, marked unverifiable.
    const sha1 = signed.replace('http://www.w3.org/2001/04/xmldsig-more#rsa-sha256', 'http://www.w3.org/2000/09/xmldsig#rsa-sha1');
    expect(readCap(sha1).signature).toBe('unverifiable');
  });

  const files = ['tg_valid.xml', 'bf_valid.xml', 'sc_valid.xml'].map((name) => path.join(SHARED, name));
  (existsSync(files[0]) ? it : it.skip)('read the real WMO test alerts (Togo, Burkina Faso, Seychelles): schema-valid, ECDSA and C14N 1.1 signatures verified', () => {
    const alerts = files.map((file) => readCap(readFileSync(file, 'utf8')));
    expect(alerts.map((alert) => alert.signature)).toEqual(['valid', 'valid', 'valid']);
    const togo = alerts[0];
    expect(togo).toMatchObject({ event: 'Rain/Wet Spell', severity: 'Severe', urgency: 'Immediate', certainty: 'Observed', expires: '2024-06-06T22:00:00.000Z' });
    // Lomé lies in the Maritime area polygon.
    expect(alertCovers(togo, [1.2228, 6.1319])).toBe(true);
    expect(alertCovers(togo, [accra.lng, accra.lat])).toBe(false);
  });

  (existsSync(files[2]) ? it : it.skip)('refuse a real signed alert altered after signing, and one whose signature value was changed', () => {
    const seychelles = readFileSync(files[2], 'utf8');
    expect(verifyCapSignatureOf(seychelles)).toMatchObject({ status: 'valid', normalised: true, signer: 'CN=www.meteo.sc' });
    expect(() => readCap(seychelles.replace('<severity>Moderate</severity>', '<severity>Minor</severity>'))).toThrow(CapSignatureError);
    expect(() => readCap(seychelles.replace('Aldabra area</areaDesc>', 'Mahé</areaDesc>'))).toThrow(/does not verify/);
    expect(() => readCap(seychelles.replace('<ds:SignatureValue>liScT3', '<ds:SignatureValue>liScT4'))).toThrow(CapSignatureError);
  });
  if (!existsSync(files[0])) console.log(`skipped the real CAP files: ${SHARED} is absent (../shared/data)`);
});

function verifyCapSignatureOf(xml: string) {
  const document = parseCapDocument(xml);
  try {
    return verifyCapSignature(document, xml);
  } finally {
    document.dispose();
  }
}
