import { CommandHandler } from '@nestjs/cqrs';
import { command, PipelineCommand, PipelineHandler } from '../../../../platform/src/index.js';
import { accountDecider, accountStream, type AccountEvent, type AccountState, type SetBankingAccess } from '../../domain/account.js';

/** Grants or removes the banking features (interface.md, "Authentication" 7; decisions.md, "Operator interface"). */
export const setBankingAccess = command<SetBankingAccess, AccountState, AccountEvent>({
  name: 'accounts.set-banking-access',
  stream: (input) => accountStream(input.account_id),
  decider: accountDecider,
  // Every rule is in the decider and the outcome is the same however often it is applied: on a conflict, decide
  // again on the fresh state. An operator's concurrent requests on one account all land (issue #10: ten identical
  // tier changes at once must all succeed; the n-th to arrive needs at most n - 1 retries).
  onConflict: { retry: 10 },
  // The guard reads the account from the key directory: the next request must see the change.
  awaits: ['key_directory'],
});

export class SetBankingAccessCommand extends PipelineCommand<SetBankingAccess, AccountState, AccountEvent> {}

@CommandHandler(SetBankingAccessCommand)
export class SetBankingAccessHandler extends PipelineHandler<SetBankingAccess, AccountState, AccountEvent> {
  protected readonly definition = setBankingAccess;
}
