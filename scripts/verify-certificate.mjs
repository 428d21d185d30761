#!/usr/bin/env node
// Verifies a proximity certificate or a proof-of-delivery receipt offline,
// with nothing but the service's public keys (docs/adr/0016):
//
//   node scripts/verify-certificate.mjs JWKS_FILE_OR_URL TOKEN [--issuer URL] [--at-issue]
//
// JWKS_FILE_OR_URL: a saved copy of GET /v2/.well-known/jwks.json, or its URL
// (fetched once; no API key needed). TOKEN: the compact JWS, or "-" to read it
// from stdin. --issuer: also require this `iss`. --at-issue: check the time
// claims as of the token's own `iat`, for the historical record of an
// artefact past its `exp` (the signature is what proves it).
//
// Prints the verified header and claims as JSON and exits 0; exits 1 with the
// reason when the token does not verify, 64 on bad usage.
import { readJwks, readToken } from './jws-input.mjs';
import { createLocalJWKSet, decodeJwt, jwtVerify } from 'jose';

const TYPES = ['proximity-certificate+jwt', 'delivery-receipt+jwt'];

const args = process.argv.slice(2);
const positional = [];
const options = { issuer: undefined, atIssue: false };
for (let index = 0; index < args.length; index++) {
  if (args[index] === '--issuer') options.issuer = args[++index];
  else if (args[index] === '--at-issue') options.atIssue = true;
  else positional.push(args[index]);
}
if (positional.length !== 2 || (options.issuer !== undefined && !options.issuer)) {
  process.stderr.write('usage: node scripts/verify-certificate.mjs JWKS_FILE_OR_URL TOKEN|- [--issuer URL] [--at-issue]\n');
  process.exit(64);
}

const [source, tokenArgument] = positional;
const token = readToken(tokenArgument);

const jwks = await readJwks(source);

try {
  const currentDate = options.atIssue ? new Date(decodeJwt(token).iat * 1000) : undefined;
  const { protectedHeader, payload } = await jwtVerify(token, createLocalJWKSet(jwks), {
    algorithms: ['EdDSA'],
    issuer: options.issuer,
    currentDate,
  });
  if (!TYPES.includes(protectedHeader.typ)) throw new Error(`unexpected typ ${JSON.stringify(protectedHeader.typ)}: not a certificate or receipt of this service`);
  process.stdout.write(`${JSON.stringify({ valid: true, header: protectedHeader, claims: payload }, null, 2)}\n`);
} catch (error) {
  process.stdout.write(`${JSON.stringify({ valid: false, reason: error.code ?? 'ERR_INVALID', message: error.message }, null, 2)}\n`);
  process.exit(1);
}
