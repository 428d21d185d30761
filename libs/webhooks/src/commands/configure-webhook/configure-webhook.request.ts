import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsOptional, IsString, Length, Matches, MaxLength } from 'class-validator';
import { WEBHOOK_SECRET, WEBHOOK_SECRET_MAX_LENGTH, WEBHOOK_SECRET_MIN_LENGTH, WEBHOOK_URL_MAX_LENGTH } from '../../domain/webhook.js';
import { DEFAULT_WEBHOOK_EVENT_TYPES, WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../../domain/notification.js';

/** POST /v2/webhooks/configure (interface.md, "Webhook configuration (input)"). */
export class ConfigureWebhookRequest {
  @ApiProperty({
    description:
      'http or https URL that receives deliveries; no credentials, no fragment. Its host must resolve to public addresses only (loopback, private, link-local, unique-local, CGNAT, multicast and unspecified addresses are refused unless the deployment allows them); it is checked again at every attempt. Redirects are not followed.',
    maxLength: WEBHOOK_URL_MAX_LENGTH,
    example: 'https://hooks.example.com/location-api',
  })
  @IsString()
  @MaxLength(WEBHOOK_URL_MAX_LENGTH)
  url: string;

  @ApiProperty({
    description: 'HMAC-SHA256 key that signs every delivery; stored encrypted and never shown again (responses give its length only)',
    minLength: WEBHOOK_SECRET_MIN_LENGTH,
    maxLength: WEBHOOK_SECRET_MAX_LENGTH,
    writeOnly: true,
  })
  @IsString()
  @Length(WEBHOOK_SECRET_MIN_LENGTH, WEBHOOK_SECRET_MAX_LENGTH, { message: `secret must be ${WEBHOOK_SECRET_MIN_LENGTH}-${WEBHOOK_SECRET_MAX_LENGTH} characters` })
  @Matches(WEBHOOK_SECRET, { message: 'secret must be printable ASCII without spaces' })
  secret: string;

  @ApiPropertyOptional({
    description: 'Event types delivered; duplicates are dropped',
    enum: WEBHOOK_EVENT_TYPES,
    isArray: true,
    default: DEFAULT_WEBHOOK_EVENT_TYPES,
    minItems: 1,
    maxItems: WEBHOOK_EVENT_TYPES.length * 2,
  })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(WEBHOOK_EVENT_TYPES.length * 2)
  @IsIn(WEBHOOK_EVENT_TYPES, { each: true, message: `each event type must be one of ${WEBHOOK_EVENT_TYPES.join(', ')}` })
  event_types?: WebhookEventType[];
}
