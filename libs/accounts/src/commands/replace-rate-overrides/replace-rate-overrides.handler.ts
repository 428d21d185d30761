import { CommandHandler } from '@nestjs/cqrs';
import { command, PipelineCommand, PipelineHandler } from '../../../../platform/src/index.js';
import { accountDecider, accountStream, type AccountEvent, type AccountState, type ReplaceRateOverrides } from '../../domain/account.js';

/** Replaces the account's per-minute rate overrides (docs/adr/0060; decisions.md, "Operator interface"). */
export const replaceRateOverrides = command<ReplaceRateOverrides, AccountState, AccountEvent>({
  name: 'accounts.replace-rate-overrides',
  stream: (input) => accountStream(input.account_id),
  decider: accountDecider,
  // Every rule is in the decider and the outcome is the same however often it is applied: on a conflict, decide
  // again on the fresh state (as the other operator actions on an account).
  onConflict: { retry: 10 },
  // The per-key rates are read from the key directory's account: the next request must see the change.
  awaits: ['key_directory'],
});

export class ReplaceRateOverridesCommand extends PipelineCommand<ReplaceRateOverrides, AccountState, AccountEvent> {}

@CommandHandler(ReplaceRateOverridesCommand)
export class ReplaceRateOverridesHandler extends PipelineHandler<ReplaceRateOverrides, AccountState, AccountEvent> {
  protected readonly definition = replaceRateOverrides;
}
