import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsInt, IsOptional, Max, Min } from 'class-validator';
import { MAX_BULK_JOB_ITEMS } from '../../domain/bulk-job.js';
import { MAX_BULK_ITEMS } from '../../domain/bulk.js';
import { DEFAULT_ADDRESS_RESOLUTION } from '../../domain/hexcode.js';

/**
 * POST /v2/hexcode/bulk. Items are checked one by one in the handler, not
 * here: one bad item must not refuse the batch.
 */
export class BulkHexcodeRequest {
  @ApiProperty({
    description:
      `1 to ${MAX_BULK_JOB_ITEMS} items, each a point \`{lat, lng, resolution?, id?}\` to code, or a code to decode: \`{code, id?}\` or a bare string. ` +
      `Up to ${MAX_BULK_ITEMS} are answered at once (200); ${MAX_BULK_ITEMS + 1} to ${MAX_BULK_JOB_ITEMS} with an account key run as a job (202, docs/guides/jobs.md), ` +
      `and a key without an account is refused above ${MAX_BULK_ITEMS} (400). The body as a whole must also fit BODY_LIMIT_BYTES (1 MiB by default).`,
    type: 'array',
    items: { oneOf: [{ type: 'string' }, { type: 'object' }] },
    minItems: 1,
    maxItems: MAX_BULK_JOB_ITEMS,
    example: [{ lat: 5.6037, lng: -0.187, id: 'shop-1' }, '6Q3-HQK-Q4ZA'],
  })
  // The synchronous path's limit: a thread validates against this class only a batch the controller did not make a job.
  @IsArray({ message: 'items must be an array' })
  @ArrayMinSize(1, { message: 'items must hold at least one item' })
  @ArrayMaxSize(MAX_BULK_ITEMS, { message: `items holds at most ${MAX_BULK_ITEMS} items; split the batch` })
  items: unknown[];

  @ApiPropertyOptional({ description: 'Resolution for points that give none', minimum: 0, maximum: 15, default: DEFAULT_ADDRESS_RESOLUTION })
  @IsOptional()
  @IsInt({ message: 'resolution must be an integer from 0 to 15' })
  @Min(0, { message: 'resolution must be an integer from 0 to 15' })
  @Max(15, { message: 'resolution must be an integer from 0 to 15' })
  resolution?: number;
}
