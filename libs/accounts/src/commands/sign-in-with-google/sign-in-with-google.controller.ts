import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { CommandBus } from '@nestjs/cqrs';
import { ApiAnswer, type AnswerOf } from '../../../../platform/src/index.js';
import { PersonalTokenSchema } from '../../personal-token.answer.js';
import { SignInWithGoogleCommand } from './sign-in-with-google.handler.js';
import { SignInWithGoogleRequest } from './sign-in-with-google.request.js';

@ApiTags('auth')
@ApiSecurity('api_key')
@Controller('v2/auth/google')
export class SignInWithGoogleController {
  constructor(private readonly commands: CommandBus) {}

  @Post('mobile')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Sign in with a Google ID token; answers a personal token',
    description: [
      'Any valid key may call it. The ID token must be signed by Google (keys from GOOGLE_JWKS_URL), issued to one of GOOGLE_CLIENT_IDS, unexpired, and carry a verified e-mail address.',
      'That address must be one an account signed up with (the first such account, as for e-mail sign-in): otherwise 404 ACCOUNT_NOT_FOUND; no account is created.',
      'The first Google sign-in ties the user to that Google account; another Google account with the same address is refused with 403 GOOGLE_ACCOUNT_MISMATCH.',
    ].join(' '),
  })
  @ApiAnswer(PersonalTokenSchema, { description: '`data` is a PersonalToken, as POST /v2/auth/login answers', requestExample: { id_token: 'eyJhbGciOiJSUzI1NiIsImtpZCI6IjFmNDBmMGE4In0.eyJpc3MiOiJodHRwczovL2FjY291bnRzLmdvb2dsZS5jb20ifQ.c2lnbmF0dXJl' } })
  @ApiResponse({ status: 401, description: 'INVALID_ID_TOKEN (one message whatever the fault)' })
  @ApiResponse({ status: 403, description: 'GOOGLE_ACCOUNT_MISMATCH' })
  @ApiResponse({ status: 404, description: 'ACCOUNT_NOT_FOUND' })
  @ApiResponse({ status: 409, description: 'CONCURRENCY_CONFLICT: the user was changed by several requests at the same moment; try again' })
  @ApiResponse({ status: 503, description: "SERVICE_UNAVAILABLE: Google's signing keys cannot be fetched; GOOGLE_SIGN_IN_UNAVAILABLE: the deployment has no Google client ids configured" })
  signIn(@Body() body: SignInWithGoogleRequest): Promise<AnswerOf<typeof PersonalTokenSchema>> {
    return this.commands.execute(new SignInWithGoogleCommand(body.id_token));
  }
}
