import { CommandHandler } from '@nestjs/cqrs';
import { command, PipelineCommand, PipelineHandler } from '../../../../platform/src/index.js';
import { accountDecider, accountStream, type AccountEvent, type AccountState, type ReplaceIpAllowlist } from '../../domain/account.js';

/** Replaces the IP allowlist of the banking endpoints; an empty list removes it (interface.md, "Authentication" 8). */
export const replaceIpAllowlist = command<ReplaceIpAllowlist, AccountState, AccountEvent>({
  name: 'accounts.replace-ip-allowlist',
  stream: (input) => accountStream(input.account_id),
  decider: accountDecider,
  // Every rule is in the decider and the outcome is the same however often it is applied: on a conflict, decide
  // again on the fresh state. An operator's concurrent requests on one account all land (issue #10: ten identical
  // tier changes at once must all succeed; the n-th to arrive needs at most n - 1 retries).
  onConflict: { retry: 10 },
  // The guard reads the account from the key directory: the next request must see the change.
  awaits: ['key_directory'],
});

export class ReplaceIpAllowlistCommand extends PipelineCommand<ReplaceIpAllowlist, AccountState, AccountEvent> {}

@CommandHandler(ReplaceIpAllowlistCommand)
export class ReplaceIpAllowlistHandler extends PipelineHandler<ReplaceIpAllowlist, AccountState, AccountEvent> {
  protected readonly definition = replaceIpAllowlist;
}
