import { Inject } from '@nestjs/common';
import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { checkPair } from '../../domain/languages.js';
import { LANGUAGE_PROVIDER, type LanguageProvider } from '../../provider/language-provider.port.js';
import type { AnswerOf } from '../../../../platform/src/index.js';
import type { TranslationSchema } from './translate-text.answer.js';

export type Translation = AnswerOf<typeof TranslationSchema>;

/** POST /v2/language/translate {text, from, to}. */
export class TranslateTextQuery extends Query<Translation> {
  constructor(
    readonly text: string,
    readonly from: string,
    readonly to: string,
  ) {
    super();
  }
}

/** A supported pair (English to a Ghanaian language or back) through the provider; nothing of the text is kept. */
@QueryHandler(TranslateTextQuery)
export class TranslateTextHandler implements IQueryHandler<TranslateTextQuery> {
  constructor(@Inject(LANGUAGE_PROVIDER) private readonly provider: LanguageProvider) {}

  async execute(query: TranslateTextQuery): Promise<Translation> {
    const { from, to } = checkPair(query.from, query.to);
    const { text } = await this.provider.translate({ text: query.text, from, to });
    return { from, to, translation: text, provider: this.provider.name };
  }
}
