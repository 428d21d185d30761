import { CommandHandler } from '@nestjs/cqrs';
import { command, PipelineCommand, PipelineHandler } from '../../../../platform/src/index.js';
import { consentNoticeStream, noticeRegistryDecider, type ConsentNoticeEvent, type NoticeRegistryState, type RegisterConsentNotice } from '../../domain/consent-notice.js';

/** PUT /v2/consent/notices/{version} (docs/adr/0059). */
export const registerConsentNotice = command<RegisterConsentNotice, NoticeRegistryState, ConsentNoticeEvent>({
  name: 'monitoring.register-consent-notice',
  stream: (registration) => consentNoticeStream(registration.account_id),
  decider: noticeRegistryDecider,
  // Every rule (one text per version and language, the account's allowance) is in the decider: a
  // registration that lost a race decides again on the stream as it now is.
  onConflict: { retry: 3 },
  // No read model: grants and the list read the registry's stream (ConsentNoticeRegistry).
});

export class RegisterConsentNoticeCommand extends PipelineCommand<RegisterConsentNotice, NoticeRegistryState, ConsentNoticeEvent> {}

@CommandHandler(RegisterConsentNoticeCommand)
export class RegisterConsentNoticeHandler extends PipelineHandler<RegisterConsentNotice, NoticeRegistryState, ConsentNoticeEvent> {
  protected readonly definition = registerConsentNotice;
}
