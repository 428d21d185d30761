import { CommandHandler } from '@nestjs/cqrs';
import { command, PipelineHandler } from '../../../../platform/src/index.js';
import { apiKeyDecider, apiKeyStream, type ApiKeyEvent, type ApiKeyState, type RevokeApiKey } from '../../domain/api-key.js';
import { RevokeKeyCommand } from '../../keys/key-commands.js';

/**
 * Revokes a key at once (interface.md, "API key states"): DELETE /v2/me/key,
 * the first half of a rotation, and personal tokens signed out by a password
 * change or reset.
 */
export const revokeKey = command<RevokeApiKey, ApiKeyState, ApiKeyEvent>({
  name: 'accounts.revoke-key',
  stream: (input) => apiKeyStream(input.data.key_id),
  decider: apiKeyDecider,
  // The only other writer of a key's stream is another revocation, so deciding again could only refuse (the key is revoked).
  // Above all a rotation must not be re-decided: of two racing rotations one wins and the other gets 409 and no key.
  onConflict: { retry: 0 },
  // "Revocation is immediate" (interface.md, "Authentication" 3): once the answer is out, this instance refuses the key.
  awaits: ['key_directory'],
});

@CommandHandler(RevokeKeyCommand)
export class RevokeKeyHandler extends PipelineHandler<RevokeApiKey, ApiKeyState, ApiKeyEvent> {
  protected readonly definition = revokeKey;
}
