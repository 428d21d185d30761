import bcrypt from 'bcryptjs';
import { createHash, randomBytes } from 'node:crypto';

/** OWASP's floor for bcrypt is 10; 12 costs a few hundred milliseconds in bcryptjs, which a sign-in can afford. */
export const DEFAULT_BCRYPT_COST = 12;

/** bcrypt reads at most this many bytes of its input and silently ignores the rest. */
const BCRYPT_MAX_INPUT_BYTES = 72;

/** Labels the pre-hash, so a stolen list of plain SHA-256 password hashes cannot be tried against ours as they are. */
const PREHASH_LABEL = 'location-api/bcrypt-prehash/v1\0';

export interface PasswordHasherOptions {
  /** bcrypt cost (log2 of the rounds), 4–31. Tests use 4. */
  cost?: number;
}

/**
 * Password hashes are bcrypt (`$2b$`, bcryptjs), over the NFC form of the
 * password so the same characters typed on different keyboards match.
 *
 * bcrypt ignores everything after 72 bytes, so two long passphrases sharing
 * their first 72 bytes would be the same password. An input longer than that
 * is first replaced by the base64 of a labelled SHA-256 digest (44 ASCII
 * characters, no NUL bytes, which some bcrypt implementations stop at); every
 * character then counts. Shorter inputs go to bcrypt unchanged.
 */
export class PasswordHasher {
  readonly cost: number;
  /** Made at construction, so even the first unknown-address sign-in costs no more than a known one. */
  private readonly dummyHash: Promise<string>;

  constructor(options: PasswordHasherOptions = {}) {
    const cost = options.cost ?? DEFAULT_BCRYPT_COST;
    if (!Number.isInteger(cost) || cost < 4 || cost > 31) throw new RangeError(`bcrypt cost must be an integer from 4 to 31, not ${cost}`);
    this.cost = cost;
    this.dummyHash = bcrypt.hash(randomBytes(16).toString('base64'), cost);
  }

  hash(password: string): Promise<string> {
    return bcrypt.hash(bcryptInput(password), this.cost);
  }

  /**
   * Whether `password` matches `hash`. bcrypt's compare takes the same time
   * wherever the hashes differ. A hash that is not a bcrypt hash never matches.
   */
  async verify(password: string, hash: string): Promise<boolean> {
    if (typeof password !== 'string' || typeof hash !== 'string' || !BCRYPT_HASH.test(hash)) {
      // Burn the time anyway: a malformed stored hash should not answer faster than a wrong password.
      await this.verifyAgainstDummy(typeof password === 'string' ? password : '');
      return false;
    }
    return bcrypt.compare(bcryptInput(password), hash);
  }

  /**
   * True when `hash` was made with another cost or another bcrypt variant
   * (`$2a$`, `$2y$`): after a successful sign-in, hash the password again
   * and store the new hash.
   */
  needsRehash(hash: string): boolean {
    const match = BCRYPT_HASH.exec(hash);
    return !match || match[1] !== '2b' || Number(match[2]) !== this.cost;
  }

  /**
   * Spends what a real `verify` spends, against a hash of a random password
   * made with the same cost, and answers false. Sign-in and forgot-password
   * call it when no user has the address, so the response time does not tell
   * whether the address exists.
   */
  async verifyAgainstDummy(password: string): Promise<false> {
    await bcrypt.compare(bcryptInput(password), await this.dummyHash);
    return false;
  }
}

/** `$2b$12$` + 22 characters of salt + 31 of hash, in bcrypt's base64 alphabet. */
const BCRYPT_HASH = /^\$(2[aby])\$(\d{2})\$[./A-Za-z0-9]{53}$/;

/** What bcrypt is given for `password`; see {@link PasswordHasher}. */
export function bcryptInput(password: string): string {
  const normalised = password.normalize('NFC');
  if (Buffer.byteLength(normalised, 'utf8') <= BCRYPT_MAX_INPUT_BYTES) return normalised;
  return createHash('sha256').update(PREHASH_LABEL).update(normalised, 'utf8').digest('base64');
}
