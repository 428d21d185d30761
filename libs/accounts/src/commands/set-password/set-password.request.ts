import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';

/** POST /v2/me/password. The policy (length, common passwords) is checked by the handler, which answers WEAK_PASSWORD. */
export class SetPasswordRequest {
  @ApiProperty({
    description: 'The new password: at least 8 characters (Unicode, after NFC), at most 256; common and easily guessed passwords are refused with 400 WEAK_PASSWORD',
    minLength: 8,
    maxLength: 256,
    example: 'kelewele at midnight',
  })
  @IsString()
  password: string;

  @ApiPropertyOptional({
    description: 'The password the user has now; required when changing a password, ignored when attaching the first one',
    maxLength: 1024,
  })
  @IsOptional()
  @IsString()
  @MaxLength(1024)
  current_password?: string;
}
