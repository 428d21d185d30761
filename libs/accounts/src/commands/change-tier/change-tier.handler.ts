import { CommandHandler } from '@nestjs/cqrs';
import { command, PipelineCommand, PipelineHandler } from '../../../../platform/src/index.js';
import { accountDecider, accountStream, type AccountEvent, type AccountState, type ChangeTier } from '../../domain/account.js';

/** Changes the plan tier, and with it the daily limit of every key of the account (decisions.md, "Operator interface"). */
export const changeTier = command<ChangeTier, AccountState, AccountEvent>({
  name: 'accounts.change-tier',
  stream: (input) => accountStream(input.account_id),
  decider: accountDecider,
  // Every rule is in the decider and the outcome is the same however often it is applied: on a conflict, decide
  // again on the fresh state. An operator's concurrent requests on one account all land (issue #10: ten identical
  // tier changes at once must all succeed; the n-th to arrive needs at most n - 1 retries).
  onConflict: { retry: 10 },
  // The guard reads the account from the key directory: the next request must see the change.
  awaits: ['key_directory'],
});

export class ChangeTierCommand extends PipelineCommand<ChangeTier, AccountState, AccountEvent> {}

@CommandHandler(ChangeTierCommand)
export class ChangeTierHandler extends PipelineHandler<ChangeTier, AccountState, AccountEvent> {
  protected readonly definition = changeTier;
}
