import { Logger } from '@nestjs/common';
import { Command, CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { ChangedConcurrentlyError, command, CommandPipeline, PipelineCommand, PipelineHandler } from '../../../../platform/src/index.js';
import { PasswordHasher } from '../../credentials/index.js';
import { userDecider, userStream, type RehashPassword, type UserEvent, type UserState } from '../../domain/user.js';
import { attemptCounters, Attempts } from '../../throttling/attempts.js';
import { InvalidCredentialsError } from '../../users/errors.js';
import { PersonalTokens, type PersonalTokenView } from '../../users/personal-tokens.js';
import { SignInDirectory } from '../../users/sign-in-directory.js';

/** Stores a verified password hashed again: another cost, or a bcrypt hash from before scrypt. */
export const rehashPassword = command<RehashPassword, UserState, UserEvent>({
  name: 'accounts.rehash-password',
  stream: (input) => userStream(input.user_id),
  decider: userDecider,
  // The decider drops a rehash whose `replaces` is no longer the stored hash, so deciding again on fresh state is sound.
  onConflict: { retry: 3 },
  // Nothing reads the hash but the user's own stream.
});

export class RehashPasswordCommand extends PipelineCommand<RehashPassword, UserState, UserEvent> {}

@CommandHandler(RehashPasswordCommand)
export class RehashPasswordHandler extends PipelineHandler<RehashPassword, UserState, UserEvent> {
  protected readonly definition = rehashPassword;
}

/** POST /v2/auth/login, with the client IP its failures are counted against. */
export class LogInCommand extends Command<PersonalTokenView> {
  constructor(
    readonly credentials: { email: string; password: string },
    readonly clientIp: string,
  ) {
    super();
  }
}

/** A user's stream as sign-in reads it (the pipeline keeps per-definition wiring: one object). */
const USER_STREAM = { decider: userDecider };

/**
 * E-mail and password sign-in (interface.md, "Authentication" 4): a personal
 * token for the user of the account the address signs in to. Every refusal is
 * the same 401 INVALID_CREDENTIALS after one password check at the configured
 * cost, whether the address is unknown, has no password, or the password is
 * wrong. Failures are throttled per address and per client IP.
 */
@CommandHandler(LogInCommand)
export class LogInHandler implements ICommandHandler<LogInCommand> {
  private readonly logger = new Logger('login');

  constructor(
    private readonly commands: CommandBus,
    // Reads only (the user's stream as the pipeline folds it); its commands go through the bus.
    private readonly streams: CommandPipeline,
    private readonly directory: SignInDirectory,
    private readonly hasher: PasswordHasher,
    private readonly tokens: PersonalTokens,
    private readonly attempts: Attempts,
  ) {}

  async execute({ credentials: { email, password }, clientIp }: LogInCommand): Promise<PersonalTokenView> {
    const counters = [attemptCounters.signInsFor(email), attemptCounters.passwordChecksFrom(clientIp)];
    await this.attempts.check(...counters);

    const account = this.directory.accountForEmail(email);
    const loaded = account ? await this.streams.read(USER_STREAM, userStream(account.user_id)) : undefined;
    const stored = loaded?.state.status === 'registered' ? loaded.state.password : null;
    const matches = account && stored ? await this.hasher.verify(password, stored.hash) : await this.hasher.verifyAgainstDummy(password);
    if (!account || !stored || !matches) {
      await this.attempts.failed(...counters);
      throw new InvalidCredentialsError();
    }

    if (this.hasher.needsRehash(stored.hash)) await this.rehash(account.user_id, stored.hash, password);
    const issued = await this.tokens.issue(account);
    // A reset or change that landed between our check and the issue must not leave a token made under the old password.
    const after = await this.streams.read(USER_STREAM, userStream(account.user_id));
    if (after.state.status !== 'registered' || after.state.password?.epoch !== stored.epoch) {
      await this.tokens.withdraw(issued.key_id);
      throw new InvalidCredentialsError();
    }
    this.logger.log({ msg: 'signed in with password', user_id: account.user_id, token_prefix: issued.token_prefix });
    const { key_id: _keyId, ...view } = issued;
    return view;
  }

  /** While the password is at hand; against the hash it was verified on, so it never lands on a newer password. */
  private async rehash(userId: string, verified: string, password: string): Promise<void> {
    try {
      await this.commands.execute(new RehashPasswordCommand({ type: 'RehashPassword', user_id: userId, replaces: verified, password_hash: await this.hasher.hash(password) }));
    } catch (error) {
      // The user's stream kept moving; the sign-in stands and the next one rehashes.
      if (!(error instanceof ChangedConcurrentlyError)) throw error;
    }
  }
}
