import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { CommandPipeline, InvalidParamError, type AnswerOf } from '../../../../platform/src/index.js';
import { NOTICE_VERSION } from '../../domain/consent.js';
import { consentNoticeStream, NoticeNotFoundError, noticeTextsOf } from '../../domain/consent-notice.js';
import type { ConsentNoticeTextsSchema } from './get-consent-notice.answer.js';

/** GET /v2/consent/notices/{version}. */
export class GetConsentNoticeQuery extends Query<AnswerOf<typeof ConsentNoticeTextsSchema>> {
  constructor(
    readonly accountId: string,
    readonly version: string,
  ) {
    super();
  }
}

/**
 * Reads the registry's stream itself, texts included (the registry reader
 * keeps hashes only): a rare call, bounded by the account's allowance of
 * notices and the size of each text.
 */
@QueryHandler(GetConsentNoticeQuery)
export class GetConsentNoticeHandler implements IQueryHandler<GetConsentNoticeQuery> {
  constructor(private readonly commands: CommandPipeline) {}

  async execute({ accountId, version }: GetConsentNoticeQuery): Promise<AnswerOf<typeof ConsentNoticeTextsSchema>> {
    if (!NOTICE_VERSION.test(version)) throw new InvalidParamError('version must be 1-64 characters of letters, digits and . _ : + -', 'version');
    const fold = noticeTextsOf(version);
    const { state } = await this.commands.read({ decider: { ...fold, decide: () => [] } }, consentNoticeStream(accountId));
    if (state.length === 0) throw new NoticeNotFoundError(version);
    return { version, items: state };
  }
}
