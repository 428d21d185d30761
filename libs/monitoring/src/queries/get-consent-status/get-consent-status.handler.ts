import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { CommandPipeline } from '../../../../platform/src/index.js';
import { ConsentProofCodec } from '../../consent-record/consent-proof-codec.js';
import { consentDecider, consentStream, type ConsentState } from '../../domain/consent.js';
import { consentStatusView } from './consent-status.view.js';

/**
 * A customer's consent, folded from its stream as a command would see it:
 * one short stream per customer, so no read model (a projection comes with
 * list endpoints). Location commands call it from their `prepare`, after
 * reading their own stream (ADR 12, "Ordering against a revoke").
 */
export async function readConsent(commands: CommandPipeline, accountId: string, customerId: string): Promise<ConsentState> {
  const { state } = await commands.read(consentReader, consentStream(accountId, customerId));
  return state;
}

/** The consent stream as every command reads it: through the codec that opens a grant's sealed proof (docs/adr/0055). */
const consentReader = { decider: consentDecider, inject: { proofs: ConsentProofCodec }, codec: ({ proofs }: { proofs: ConsentProofCodec }) => proofs };

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
