#!/usr/bin/env node
// Verifies a consent receipt (grant, revocation or erasure) offline, with
// nothing but the service's public keys (docs/adr/0032):
//
//   node scripts/verify-consent-receipt.mjs JWKS_FILE_OR_URL RECEIPT [--issuer URL] [--notice-sha256 HEX] [--at-issue]
//
// JWKS_FILE_OR_URL: a saved copy of GET /v2/.well-known/jwks.json, or its URL
// (fetched once; no API key needed). RECEIPT: the compact JWS (`receipt.token`
// of POST /v2/consent/grant, /revoke or /delete-data), or "-" to read it from
// stdin. --issuer: also require this `iss`. --notice-sha256: also require that
// the receipt names the notice with this SHA-256 (hash the notice text you
// hold: `sha256sum notice.txt`). --at-issue: check the time claims as of the
// receipt's own `iat` (the signature is what proves it).
//
// Prints the verified header and claims (Kantara Consent Receipt v1.1 fields)
// as JSON and exits 0; exits 1 with the reason when the receipt does not
// verify, 64 on bad usage.
import { readJwks, readToken } from './jws-input.mjs';
import { createLocalJWKSet, decodeJwt, jwtVerify } from 'jose';

const TYP = 'consent-receipt+jwt';
const KANTARA_VERSION = 'KI-CR-v1.1.0';

const args = process.argv.slice(2);
const positional = [];
const options = { issuer: undefined, noticeSha256: undefined, atIssue: false };
for (let index = 0; index < args.length; index++) {
  if (args[index] === '--issuer') options.issuer = args[++index];
  else if (args[index] === '--notice-sha256') options.noticeSha256 = args[++index];
  else if (args[index] === '--at-issue') options.atIssue = true;
  else positional.push(args[index]);
}
if (positional.length !== 2 || (options.issuer !== undefined && !options.issuer) || (options.noticeSha256 !== undefined && !/^[0-9a-f]{64}$/.test(options.noticeSha256))) {
  process.stderr.write('usage: node scripts/verify-consent-receipt.mjs JWKS_FILE_OR_URL RECEIPT|- [--issuer URL] [--notice-sha256 HEX] [--at-issue]\n');
  process.exit(64);
}

const [source, tokenArgument] = positional;
const token = readToken(tokenArgument);

const jwks = await readJwks(source);

try {
  const currentDate = options.atIssue ? new Date(decodeJwt(token).iat * 1000) : undefined;
  const { protectedHeader, payload } = await jwtVerify(token, createLocalJWKSet(jwks), {
    algorithms: ['EdDSA'],
    typ: TYP,
    issuer: options.issuer,
    currentDate,
    requiredClaims: ['iss', 'iat', 'jti', 'consentReceiptID', 'piiPrincipalId'],
  });
  if (payload.version !== KANTARA_VERSION) throw Object.assign(new Error(`unexpected receipt version ${JSON.stringify(payload.version)}`), { code: 'ERR_RECEIPT_VERSION' });
  if (options.noticeSha256 !== undefined && payload.notice?.sha256 !== options.noticeSha256) {
    throw Object.assign(new Error(`the receipt names notice ${JSON.stringify(payload.notice?.sha256 ?? null)}, not ${options.noticeSha256}`), { code: 'ERR_NOTICE_MISMATCH' });
  }
  process.stdout.write(`${JSON.stringify({ valid: true, header: protectedHeader, claims: payload }, null, 2)}\n`);
} catch (error) {
  process.stdout.write(`${JSON.stringify({ valid: false, reason: error.code ?? 'ERR_INVALID', message: error.message }, null, 2)}\n`);
  process.exit(1);
}
