import { CommandHandler } from '@nestjs/cqrs';
import { command, PipelineHandler } from '../../../../platform/src/index.js';
import { apiKeyDecider, apiKeyStream, type ApiKeyEvent, type ApiKeyState, type IssueApiKey } from '../../domain/api-key.js';
import { IssueKeyCommand } from '../../keys/key-commands.js';

/**
 * Issues an API key of any kind: at signup, by rotation, for the operator
 * (legacy keys) and at sign-in (personal tokens). No HTTP door of its own: the
 * process handlers of those slices run it.
 */
export const issueKey = command<IssueApiKey, ApiKeyState, ApiKeyEvent>({
  name: 'accounts.issue-key',
  stream: (input) => apiKeyStream(input.data.key_id),
  decider: apiKeyDecider,
  // The key id is derived from a fresh 256-bit random key (ADR 0057): a conflict would mean another request made the same key, and deciding again would only refuse it.
  onConflict: { retry: 0 },
  // The answer hands out the key: this instance's directory must know it before the caller's next request.
  awaits: ['key_directory'],
});

@CommandHandler(IssueKeyCommand)
export class IssueKeyHandler extends PipelineHandler<IssueApiKey, ApiKeyState, ApiKeyEvent> {
  protected readonly definition = issueKey;
}
