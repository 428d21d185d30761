import { ApiProperty } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';

/** POST /v2/auth/reset-password. */
export class ResetPasswordRequest {
  @ApiProperty({ description: 'The one-time token from the mail (43 characters of base64url)', maxLength: 256, example: 'q0Zr6eJ1Yy0R3bW8m5nC2s9vT4xK7pL1aD6fH3gJ0kA' })
  @IsString()
  @MaxLength(256)
  token: string;

  @ApiProperty({ description: 'The new password, under the same policy as POST /v2/me/password', minLength: 8, maxLength: 256 })
  @IsString()
  password: string;
}
