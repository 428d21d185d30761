import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsEmail, MaxLength } from 'class-validator';

/** POST /v2/auth/forgot-password. */
export class RequestPasswordResetRequest {
  @ApiProperty({ maxLength: 254, example: 'ama@example.com', description: 'The address the account signed up with' })
  @Transform(({ value }) => (typeof value === 'string' ? value.trim().toLowerCase() : value))
  @IsEmail({}, { message: 'email must be an e-mail address' })
  @MaxLength(254)
  email: string;
}
