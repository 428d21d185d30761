// What both offline verifiers read (scripts/verify-certificate.mjs, scripts/verify-consent-receipt.mjs):
// the token (an argument, or - for standard input) and the JWKS (a file or the service's URL).
import { readFileSync } from 'node:fs';

/** The token as given: the argument itself, or standard input for `-`. */
export function readToken(argument) {
  return (argument === '-' ? readFileSync(0, 'utf8') : argument).trim();
}

/** The key set from a file or from GET /v2/.well-known/jwks.json; exits 1 naming the source when it cannot be read. */
export async function readJwks(source) {
  try {
    return /^https?:\/\//.test(source) ? await (await fetch(source)).json() : JSON.parse(readFileSync(source, 'utf8'));
  } catch (error) {
    process.stderr.write(`cannot read the JWKS from ${source}: ${error.message}\n`);
    process.exit(1);
  }
}
