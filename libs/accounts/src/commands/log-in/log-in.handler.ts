import { createHash } from 'node:crypto';
import { Inject, Logger } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, RATE_LIMITER, type Clock, type RateLimiter } from '../../../../platform/src/index.js';
import { PasswordHasher } from '../../credentials/index.js';
import { InvalidCredentialsError, SignInThrottledError, UserChangedConcurrentlyError } from '../../users/errors.js';
import { PersonalTokens, type PersonalTokenView } from '../../users/personal-tokens.js';
import { SignInDirectory } from '../../users/sign-in-directory.js';
import { Users, type LoadedUser } from '../../users/users.js';
import { LogInCommand } from './log-in.command.js';

/**
 * Failed sign-ins allowed per address in a rolling 15 minutes. Counted for
 * every address asked about, known or not, so the limit tells nothing about
 * which addresses exist; it caps guessing against one address at 40 an hour,
 * whatever keys the guesser holds.
 */
export const FAILED_SIGN_INS = { limit: 10, windowMs: 15 * 60_000 };

/**
 * E-mail and password sign-in (interface.md, "Authentication" 4): a personal
 * token for the user of the account the address signs in to. Every refusal is
 * the same 401 INVALID_CREDENTIALS after one bcrypt comparison at the
 * configured cost, whether the address is unknown, has no password, or the
 * password is wrong.
 */
@CommandHandler(LogInCommand)
export class LogInHandler implements ICommandHandler<LogInCommand> {
  private readonly logger = new Logger('login');

  constructor(
    private readonly directory: SignInDirectory,
    private readonly users: Users,
    private readonly hasher: PasswordHasher,
    private readonly tokens: PersonalTokens,
    @Inject(RATE_LIMITER) private readonly limiter: RateLimiter,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ email, password }: LogInCommand): Promise<PersonalTokenView> {
    const throttle = `sign-in-failures:${createHash('sha256').update(email).digest('hex')}`;
    const allowance = await this.limiter.peek(throttle, FAILED_SIGN_INS, this.clock.now());
    if (!allowance.allowed) throw new SignInThrottledError(Math.max(1, Math.ceil(allowance.retryAfterMs / 1000)));

    const account = this.directory.accountForEmail(email);
    const loaded = account ? await this.users.load(account.user_id) : undefined;
    const stored = loaded?.state.status === 'registered' ? loaded.state.password : null;
    const matches = account && stored ? await this.hasher.verify(password, stored.hash) : await this.hasher.verifyAgainstDummy(password);
    if (!account || !stored || !matches) {
      await this.limiter.consume(throttle, FAILED_SIGN_INS, this.clock.now());
      throw new InvalidCredentialsError();
    }

    if (this.hasher.needsRehash(stored.hash)) await this.rehash(account.user_id, loaded!, password);
    const issued = await this.tokens.issue(account);
    // A reset or change that landed between our check and the issue must not leave a token made under the old password.
    const after = await this.users.load(account.user_id);
    if (after.state.status !== 'registered' || after.state.password?.epoch !== stored.epoch) {
      await this.tokens.withdraw(issued.key_id);
      throw new InvalidCredentialsError();
    }
    this.logger.log({ msg: 'signed in with password', user_id: account.user_id, token_prefix: issued.token_prefix });
    const { key_id: _keyId, ...view } = issued;
    return view;
  }

  /** BCRYPT_COST changed since the hash was made: store a hash at the new cost while the password is at hand. */
  private async rehash(userId: string, verified: LoadedUser, password: string): Promise<void> {
    const passwordHash = await this.hasher.hash(password);
    try {
      // Against the state the password was verified on: if anything changed since, the rehash is dropped, never applied to a newer password.
      await this.users.decideOn(userId, verified, { type: 'RehashPassword', password_hash: passwordHash, now: this.clock.now() });
    } catch (error) {
      // Someone changed the password meanwhile; the next sign-in rehashes.
      if (!(error instanceof UserChangedConcurrentlyError)) throw error;
    }
  }
}
