import { CommandHandler, type CommandBus } from '@nestjs/cqrs';
import { command, PipelineCommand, PipelineHandler } from '../../../../platform/src/index.js';
import type { KeyDirectory, KeyRecord } from '../../public/key-directory.js';
import { keyPrefix, newApiKey } from '../../credentials/index.js';
import { apiKeyDecider, apiKeyStream, type ApiKeyEvent, type ApiKeyIssued, type ApiKeyState, type IssueApiKey } from '../../domain/api-key.js';

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

export class IssueKeyCommand extends PipelineCommand<IssueApiKey, ApiKeyState, ApiKeyEvent> {}

@CommandHandler(IssueKeyCommand)
export class IssueKeyHandler extends PipelineHandler<IssueApiKey, ApiKeyState, ApiKeyEvent> {
  protected readonly definition = issueKey;
}

/** Runs `issueKey`: through `CommandBus` inside Nest, through the pipeline in the operator CLI (which runs outside Nest). */
export type KeyIssuer = (input: IssueApiKey) => Promise<unknown>;

/** The process handlers' way to issue: `IssueKeyCommand` through the bus. */
export const issueThrough =
  (commands: CommandBus): KeyIssuer =>
  (input) =>
    commands.execute(new IssueKeyCommand(input));

export type NewKey = Omit<ApiKeyIssued['data'], 'issued_at' | 'key_id' | 'key_hash' | 'key_prefix'>;

/**
 * Issues a key (32 random bytes, shown once; only its SHA-256 is stored, and
 * its id is derived from that: `keyIdFor`) and answers it with its directory
 * record. The key is made here, or given when its id must be known first (a
 * rotation names its replacement).
 */
export async function issueNewKey(issue: KeyIssuer, directory: KeyDirectory, details: NewKey, made: ReturnType<typeof newApiKey> = newApiKey()): Promise<{ key: string; record: KeyRecord }> {
  const { key, hash, keyId } = made;
  await issue({ type: 'IssueApiKey', data: { ...details, key_id: keyId, key_hash: hash, key_prefix: keyPrefix(key) } });
  const record = directory.byKeyId(keyId);
  if (!record) throw new Error(`issued key ${keyId} is missing from the key directory`);
  return { key, record };
}
