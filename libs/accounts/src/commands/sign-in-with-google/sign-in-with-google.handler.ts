import { Inject, Logger } from '@nestjs/common';
import { Command, CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { command, PipelineCommand, PipelineHandler } from '../../../../platform/src/index.js';
import { IdentityProviderUnavailableError, InvalidIdTokenError, type GoogleIdTokenVerifier } from '../../credentials/index.js';
import { userDecider, userStream, type LinkGoogleIdentity, type UserEvent, type UserState } from '../../domain/user.js';
import { GoogleSignInUnavailableError, NoAccountForAddressError } from '../../users/errors.js';
import { PersonalTokens, type PersonalTokenView } from '../../users/personal-tokens.js';
import { SignInDirectory } from '../../users/sign-in-directory.js';
import { GOOGLE_ID_TOKEN_VERIFIER } from '../../users/users.providers.js';

/** Ties the user to the Google account (`sub`) on the first Google sign-in; refuses another one afterwards. */
export const linkGoogleIdentity = command<LinkGoogleIdentity, UserState, UserEvent>({
  name: 'accounts.link-google-identity',
  stream: (input) => userStream(input.identity.user_id),
  decider: userDecider,
  // Every rule (first link, same subject, another subject) is in the decider: deciding again on fresh state is sound.
  onConflict: { retry: 3 },
  // Nothing but the user's own stream reads the link.
});

export class LinkGoogleIdentityCommand extends PipelineCommand<LinkGoogleIdentity, UserState, UserEvent> {}

@CommandHandler(LinkGoogleIdentityCommand)
export class LinkGoogleIdentityHandler extends PipelineHandler<LinkGoogleIdentity, UserState, UserEvent> {
  protected readonly definition = linkGoogleIdentity;
}

/** POST /v2/auth/google/mobile with a Google ID token. */
export class SignInWithGoogleCommand extends Command<PersonalTokenView> {
  constructor(readonly idToken: string) {
    super();
  }
}

/**
 * Google sign-in from a mobile app (interface.md, "Authentication" 4): the
 * verified address finds the account it signs in to, the same one e-mail and
 * password sign-in reaches, and its user gets a personal token. No account is
 * created: an address no account signed up with is 404 ACCOUNT_NOT_FOUND, so
 * a Google sign-in can never split a person across two accounts.
 */
@CommandHandler(SignInWithGoogleCommand)
export class SignInWithGoogleHandler implements ICommandHandler<SignInWithGoogleCommand> {
  private readonly logger = new Logger('google-sign-in');

  constructor(
    @Inject(GOOGLE_ID_TOKEN_VERIFIER) private readonly verifier: GoogleIdTokenVerifier | null,
    private readonly commands: CommandBus,
    private readonly directory: SignInDirectory,
    private readonly tokens: PersonalTokens,
  ) {}

  async execute({ idToken }: SignInWithGoogleCommand): Promise<PersonalTokenView> {
    if (!this.verifier) throw new GoogleSignInUnavailableError();
    let identity;
    try {
      identity = await this.verifier.verify(idToken);
    } catch (error) {
      // The client sees one fixed message; why the token was refused is for the operator.
      if (error instanceof InvalidIdTokenError) this.logger.warn({ msg: 'Google ID token refused', reason: error.reason });
      if (error instanceof IdentityProviderUnavailableError) this.logger.error({ msg: 'Google signing keys unavailable', reason: error.reason });
      throw error;
    }
    const account = this.directory.accountForEmail(identity.email.toLowerCase());
    if (!account) throw new NoAccountForAddressError();
    await this.commands.execute(
      new LinkGoogleIdentityCommand({
        type: 'LinkGoogleIdentity',
        identity: { user_id: account.user_id, account_id: account.account_id, email: account.email },
        subject: identity.subject,
      }),
    );
    const { key_id: _keyId, ...view } = await this.tokens.issue(account);
    this.logger.log({ msg: 'signed in with Google', user_id: account.user_id, token_prefix: view.token_prefix });
    return view;
  }
}
