import { ApiProperty } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';

/** POST /v2/auth/google/mobile. */
export class SignInWithGoogleRequest {
  @ApiProperty({
    description: 'A Google ID token (a JWT) from Google Sign-In on the device, issued to one of the OAuth client ids in GOOGLE_CLIENT_IDS',
    maxLength: 8192,
  })
  @IsString()
  @MaxLength(8192)
  id_token: string;
}
