import bcrypt from 'bcryptjs';
import { createHash, randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** The configured password cost (BCRYPT_COST, kept for existing deployments); OWASP's floor for bcrypt is 10. */
export const DEFAULT_BCRYPT_COST = 12;

/**
 * scrypt parameters for a cost: N = 2^(cost + 3), r = 8, p = 3. At the default
 * cost 12 that is OWASP's "N=2^15 (32 MiB), r=8, p=3" (as strong as its
 * N=2^17, p=1 in a quarter of the memory): a few hundred milliseconds of one
 * libuv thread, and none of the event loop. Tests run cost 4 (N = 128).
 */
export function scryptParamsFor(cost: number): ScryptParams {
  return { ln: cost + 3, r: 8, p: 3 };
}

export interface ScryptParams {
  /** log2 of N, the CPU/memory cost. */
  ln: number;
  /** Block size. */
  r: number;
  /** Parallelisation (computed one after another by Node: time, not threads). */
  p: number;
}

/**
 * Hashes computed at once. Node runs scrypt on the libuv thread pool (4 threads
 * unless UV_THREADPOOL_SIZE says otherwise), which also serves file and DNS work
 * and the embedded stores: a storm of password checks queues here instead of
 * taking the whole pool.
 */
export const MAX_CONCURRENT_HASHES = 2;

/** bcrypt reads at most this many bytes of its input and silently ignores the rest. */
const BCRYPT_MAX_INPUT_BYTES = 72;

/** Labels the pre-hash, so a stolen list of plain SHA-256 password hashes cannot be tried against ours as they are. */
const PREHASH_LABEL = 'location-api/bcrypt-prehash/v1\0';

const SALT_BYTES = 16;
const KEY_BYTES = 32;

/** Stored parameters outside these bounds are refused rather than computed: a hash must not be able to ask for gigabytes. */
const LIMITS = { ln: [1, 20], r: [1, 32], p: [1, 16] } as const;

export interface PasswordHasherOptions {
  /** BCRYPT_COST, 4–31: new hashes are scrypt at {@link scryptParamsFor}(cost). Tests use 4. */
  cost?: number;
}

/**
 * Password hashes, over the NFC form of the password so the same characters
 * typed on different keyboards match.
 *
 * New hashes are scrypt (`node:crypto`, run on the libuv thread pool, so a
 * storm of wrong passwords does not stall the event loop; issue #10, item 5),
 * stored as `$scrypt$ln=15,r=8,p=3$<salt>$<key>` (base64, no padding). Hashes
 * made before are bcrypt (`$2b$`, bcryptjs) and still verify, on the event loop
 * in 100 ms slices as bcryptjs does; `needsRehash` says yes to every one of
 * them, so a successful sign-in stores the password as scrypt.
 */
export class PasswordHasher {
  readonly cost: number;
  readonly params: ScryptParams;
  private readonly gate = new Gate(MAX_CONCURRENT_HASHES);
  /** Made at construction, so even the first unknown-address sign-in costs no more than a known one. */
  private readonly dummyHash: Promise<string>;

  constructor(options: PasswordHasherOptions = {}) {
    const cost = options.cost ?? DEFAULT_BCRYPT_COST;
    if (!Number.isInteger(cost) || cost < 4 || cost > 31) throw new RangeError(`password cost must be an integer from 4 to 31, not ${cost}`);
    this.cost = cost;
    // Beyond N = 2^20 (a gigabyte at r = 8) a cost is a misconfiguration, not a stronger hash.
    this.params = scryptParamsFor(Math.min(cost, LIMITS.ln[1] - 3));
    this.dummyHash = this.hash(randomBytes(16).toString('base64'));
  }

  async hash(password: string): Promise<string> {
    const salt = randomBytes(SALT_BYTES);
    const key = await this.gate.run(() => derive(password.normalize('NFC'), salt, this.params));
    return `$scrypt$ln=${this.params.ln},r=${this.params.r},p=${this.params.p}$${unpadded(salt)}$${unpadded(key)}`;
  }

  /**
   * Whether `password` matches `hash` (scrypt, or bcrypt from before).
   * The comparison takes the same time wherever the hashes differ. A hash of
   * neither kind never matches, after the same work as a wrong password.
   */
  async verify(password: string, hash: string): Promise<boolean> {
    if (typeof password !== 'string' || typeof hash !== 'string') return this.verifyAgainstDummy('');
    const scrypted = parseScrypt(hash);
    if (scrypted) {
      const key = await this.gate.run(() => derive(password.normalize('NFC'), scrypted.salt, scrypted.params));
      return key.length === scrypted.key.length && timingSafeEqual(key, scrypted.key);
    }
    if (BCRYPT_HASH.test(hash)) return this.gate.run(() => bcrypt.compare(bcryptInput(password), hash));
    // Burn the time anyway: a malformed stored hash should not answer faster than a wrong password.
    return this.verifyAgainstDummy(password);
  }

  /**
   * True unless `hash` is scrypt with today's parameters: bcrypt hashes, and
   * scrypt hashes made at another cost. After a successful sign-in, hash the
   * password again and store the new hash.
   */
  needsRehash(hash: string): boolean {
    const parsed = parseScrypt(hash);
    return !parsed || parsed.params.ln !== this.params.ln || parsed.params.r !== this.params.r || parsed.params.p !== this.params.p;
  }

  /**
   * Spends what a real `verify` spends, against a hash of a random password
   * made with the same parameters, and answers false. Sign-in calls it when no
   * user has the address, so the response time does not tell whether the
   * address exists.
   */
  async verifyAgainstDummy(password: string): Promise<false> {
    await this.verify(password, await this.dummyHash);
    return false;
  }
}

/** `$2b$12$` + 22 characters of salt + 31 of hash, in bcrypt's base64 alphabet. */
const BCRYPT_HASH = /^\$(2[aby])\$(\d{2})\$[./A-Za-z0-9]{53}$/;
const SCRYPT_HASH = /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9+/]{22})\$([A-Za-z0-9+/]{43})$/;

function parseScrypt(hash: string): { params: ScryptParams; salt: Buffer; key: Buffer } | undefined {
  const match = SCRYPT_HASH.exec(hash);
  if (!match) return undefined;
  const params = { ln: Number(match[1]), r: Number(match[2]), p: Number(match[3]) };
  if ((Object.keys(LIMITS) as Array<keyof typeof LIMITS>).some((name) => params[name] < LIMITS[name][0] || params[name] > LIMITS[name][1])) return undefined;
  return { params, salt: Buffer.from(match[4], 'base64'), key: Buffer.from(match[5], 'base64') };
}

function derive(password: string, salt: Buffer, params: ScryptParams): Promise<Buffer> {
  const N = 2 ** params.ln;
  // Node refuses to allocate more than `maxmem` (32 MiB by default); scrypt needs 128·N·r bytes, plus room.
  const options: ScryptOptions = { N, r: params.r, p: params.p, maxmem: 256 * N * params.r };
  return new Promise((resolve, reject) => scrypt(password, salt, KEY_BYTES, options, (error, key) => (error ? reject(error) : resolve(key))));
}

function unpadded(bytes: Buffer): string {
  return bytes.toString('base64').replace(/=+$/, '');
}

/** What bcrypt is given for `password` (legacy hashes only): NFC, pre-hashed past 72 bytes so every character counts. */
export function bcryptInput(password: string): string {
  const normalised = password.normalize('NFC');
  if (Buffer.byteLength(normalised, 'utf8') <= BCRYPT_MAX_INPUT_BYTES) return normalised;
  return createHash('sha256').update(PREHASH_LABEL).update(normalised, 'utf8').digest('base64');
}

/** At most `max` tasks at once; the rest wait their turn in order. */
class Gate {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly max: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.max) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.active += 1;
    try {
      return await task();
    } finally {
      // Hand the slot straight to the next in line, or give it back.
      const next = this.waiting.shift();
      if (next) next();
      else this.active -= 1;
    }
  }
}
