import type { CommandBus } from '@nestjs/cqrs';
import { PipelineCommand } from '../../../platform/src/index.js';
import { keyPrefix, newApiKey } from '../credentials/index.js';
import type { ApiKeyEvent, ApiKeyIssued, ApiKeyState, IssueApiKey, RevokeApiKey } from '../domain/api-key.js';
import type { KeyDirectory, KeyRecord } from '../public/key-directory.js';

// The key commands several slices dispatch (sign-up, rotation, legacy keys, personal tokens): each is handled in
// its own slice (commands/issue-key, commands/revoke-key), and no slice imports another's files.

/** Issues an API key of any kind (commands/issue-key). */
export class IssueKeyCommand extends PipelineCommand<IssueApiKey, ApiKeyState, ApiKeyEvent> {}

/** Revokes a key (commands/revoke-key; a rotation revokes the key it replaces). */
export class RevokeKeyCommand extends PipelineCommand<RevokeApiKey, ApiKeyState, ApiKeyEvent> {}

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
