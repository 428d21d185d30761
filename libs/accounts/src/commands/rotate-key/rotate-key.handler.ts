import { Command, CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { newApiKey } from '../../credentials/index.js';
import { KeyDirectory, type KeyRecord } from '../../public/key-directory.js';
import { issueNewKey, issueThrough, RevokeKeyCommand } from '../../keys/key-commands.js';

/** POST /v2/me/rotate: the calling key, replaced; the answer holds the new key (shown once). */
export class RotateKeyCommand extends Command<{ key: string; record: KeyRecord }> {
  constructor(readonly current: KeyRecord) {
    super();
  }
}

/**
 * Rotation (interface.md, "Authentication" 3): the calling key is revoked,
 * then its replacement issued. Revoking first means a crash between the two
 * leaves the caller without a working key (the operator can issue one), which
 * is safer than two live keys; and of two racing rotations only one gets past
 * the revocation (409 CONCURRENCY_CONFLICT for the other, which issues nothing).
 */
@CommandHandler(RotateKeyCommand)
export class RotateKeyHandler implements ICommandHandler<RotateKeyCommand> {
  constructor(
    private readonly commands: CommandBus,
    private readonly directory: KeyDirectory,
  ) {}

  async execute({ current }: RotateKeyCommand): Promise<{ key: string; record: KeyRecord }> {
    // The replacement is made first: its id, derived from it, is what the revocation names.
    const replacement = newApiKey();
    await this.commands.execute(new RevokeKeyCommand({ type: 'RevokeApiKey', data: { key_id: current.key_id, reason: 'rotated', replaced_by: replacement.keyId } }));
    return issueNewKey(
      issueThrough(this.commands),
      this.directory,
      {
        kind: current.kind,
        account_id: current.account_id,
        name: current.name,
        email: current.email,
        tier: this.directory.tierOf(current),
        // A rotated personal token keeps its expiry: rotation must not extend a session.
        expires_at: current.expires_at,
        rotated_from: current.key_id,
        user_id: current.user_id,
      },
      replacement,
    );
  }
}
