import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { decodeGhanaPost } from '../../domain/ghanapost-gps.js';
import { findAddressCodes } from '../../domain/address-text.js';
import type { AnswerOf } from '../../../../platform/src/index.js';
import type { ParseAnswerSchema } from './parse-address.answer.js';

const GHANAPOST_NOTE =
  'A GhanaPostGPS digital address: recognised, and its region decoded (`ghanapost_gps`), but this service cannot turn it into a point (its grid is proprietary). Ask for the hex code instead.';

export type ParseAnswer = AnswerOf<typeof ParseAnswerSchema>;

/** POST /v2/address/parse {text}. */
export class ParseAddressQuery extends Query<ParseAnswer> {
  constructor(readonly text: string) {
    super();
  }
}

/** interface.md, "Parse result": the `code` field holds the extracted code; no code found is still an answer, with `code: null`. */
@QueryHandler(ParseAddressQuery)
export class ParseAddressHandler implements IQueryHandler<ParseAddressQuery> {
  async execute(query: ParseAddressQuery): Promise<ParseAnswer> {
    const { match, others, suggestions, suggested_for } = findAddressCodes(query.text);
    return {
      code: match?.code ?? null,
      kind: match?.kind ?? null,
      display: match?.display ?? null,
      resolution: match?.resolution ?? null,
      cell: match?.cell ?? null,
      convertible: match?.convertible ?? false,
      recognised: match?.recognised ?? null,
      note: match?.kind === 'ghanapost_gps' ? GHANAPOST_NOTE : match ? null : 'no address code found in the text',
      other_codes: others.map((other) => ({ code: other.code, kind: other.kind })),
      suggestions,
      suggested_for,
      ghanapost_gps: match?.kind === 'ghanapost_gps' ? decodeGhanaPost(match.code) : null,
    };
  }
}
