import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { CommandPipeline } from '../../../../platform/src/index.js';
import { readConsent } from '../../consent-record/read-consent.js';
import { consentStatusView } from '../../consent-record/consent-status.view.js';

/** GET /v2/consent/status?customer_id=. */
export class GetConsentStatusQuery extends Query<ReturnType<typeof consentStatusView>> {
  constructor(
    readonly accountId: string,
    readonly customerId: string,
  ) {
    super();
  }
}

@QueryHandler(GetConsentStatusQuery)
export class GetConsentStatusHandler implements IQueryHandler<GetConsentStatusQuery> {
  constructor(private readonly commands: CommandPipeline) {}

  async execute({ accountId, customerId }: GetConsentStatusQuery) {
    return consentStatusView(customerId, await readConsent(this.commands, accountId, customerId), accountId);
  }
}
