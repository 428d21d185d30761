import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { ParseAddressQuery } from './parse-address.handler.js';
import { ParseAddressRequest } from './parse-address.request.js';
import { ApiAnswer, type AnswerOf } from '../../../../platform/src/index.js';
import { ParseAnswerSchema } from './parse-address.answer.js';

/** interface.md, "Addresses, hex codes and search" and "Parse result": the `code` field holds the extracted code. */
@ApiTags('addressing')
@ApiSecurity('api_key')
@Controller('v2/address')
export class ParseAddressController {
  constructor(private readonly queries: QueryBus) {}

  @Post('parse')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Find the address code in free text',
    description:
      'Recognises hex codes compact, hyphenated, spaced, in any case and inside other text, and GhanaPostGPS digital addresses (`GA-123-4567`). ' +
      'Inside other text a hex code must contain a digit or be hyphenated, so that ordinary words are not taken for codes. ' +
      'No code found is still a 200, with `code: null`; code-shaped text that fails its check comes back with `suggestions`. ' +
      'For a GhanaPostGPS address, `ghanapost_gps` holds what is public about it: `{prefix, region: {letter, name, current_regions} | null, district: null, point_available: false, note}` ' +
      '(the region from the prefix’s first letter, as the ten regions of 2017 with the regions of today they became; the district letters are unpublished, so not decoded; the point needs GhanaPost’s own service).',
  })
  @ApiAnswer(ParseAnswerSchema, { requestExample: { text: 'deliver to my shop, 0qp-pan-vtwh, by the blue gate' } })
  @ApiResponse({ status: 400, description: 'INVALID_PARAM (field `text`)' })
  parse(@Body() body: ParseAddressRequest): Promise<AnswerOf<typeof ParseAnswerSchema>> {
    return this.queries.execute(new ParseAddressQuery(body.text));
  }
}
