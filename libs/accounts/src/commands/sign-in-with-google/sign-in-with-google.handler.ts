import { Inject, Logger } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock } from '../../../../platform/src/index.js';
import { IdentityProviderUnavailableError, InvalidIdTokenError, type GoogleIdTokenVerifier } from '../../credentials/index.js';
import { NoAccountForAddressError, GoogleSignInUnavailableError } from '../../users/errors.js';
import { PersonalTokens, type PersonalTokenView } from '../../users/personal-tokens.js';
import { SignInDirectory } from '../../users/sign-in-directory.js';
import { GOOGLE_ID_TOKEN_VERIFIER } from '../../users/users.providers.js';
import { Users } from '../../users/users.js';
import { SignInWithGoogleCommand } from './sign-in-with-google.command.js';

/**
 * Google sign-in from a mobile app (interface.md, "Authentication" 4): the
 * verified address finds the account it signs in to, the same one e-mail and
 * password sign-in reaches, and its user gets a personal token. No account is
 * created: an address no account signed up with is 404 ACCOUNT_NOT_FOUND, so
 * a Google sign-in can never split a person across two accounts. The first
 * sign-in ties the user to the Google account (`sub`); a token for the same
 * address from another Google account is refused afterwards.
 */
@CommandHandler(SignInWithGoogleCommand)
export class SignInWithGoogleHandler implements ICommandHandler<SignInWithGoogleCommand> {
  private readonly logger = new Logger('google-sign-in');

  constructor(
    @Inject(GOOGLE_ID_TOKEN_VERIFIER) private readonly verifier: GoogleIdTokenVerifier | null,
    private readonly directory: SignInDirectory,
    private readonly users: Users,
    private readonly tokens: PersonalTokens,
    @Inject(CLOCK) private readonly clock: Clock,
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
    await this.users.execute(account.user_id, {
      type: 'LinkGoogleIdentity',
      identity: { user_id: account.user_id, account_id: account.account_id, email: account.email },
      subject: identity.subject,
      now: this.clock.now(),
    });
    const { key_id: _keyId, ...view } = await this.tokens.issue(account);
    this.logger.log({ msg: 'signed in with Google', user_id: account.user_id, token_prefix: view.token_prefix });
    return view;
  }
}
