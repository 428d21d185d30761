import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsEmail, IsString, MaxLength } from 'class-validator';

/** POST /v2/auth/login. */
export class LogInRequest {
  @ApiProperty({ maxLength: 254, example: 'ama@example.com', description: 'The e-mail address the account signed up with' })
  @Transform(({ value }) => (typeof value === 'string' ? value.trim().toLowerCase() : value))
  @IsEmail({}, { message: 'email must be an e-mail address' })
  @MaxLength(254)
  email: string;

  @ApiProperty({ maxLength: 1024, description: 'The password attached with POST /v2/me/password' })
  @IsString()
  @MaxLength(1024)
  password: string;
}
