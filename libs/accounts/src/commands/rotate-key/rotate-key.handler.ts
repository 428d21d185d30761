import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { CommandPipeline } from '../../../../platform/src/index.js';
import { KeyDirectory, type KeyRecord } from '../../authentication/key-directory.js';
import { issueNewKey } from '../issue-key/issue-key.handler.js';
import { revokeKey } from '../revoke-key/revoke-key.handler.js';

/**
 * Rotation (interface.md, "Authentication" 3): the calling key is revoked,
 * then its replacement issued. Revoking first means a crash between the two
 * leaves the caller without a working key (the operator can issue one), which
 * is safer than two live keys; and of two racing rotations only one gets past
 * the revocation (409 CONCURRENCY_CONFLICT for the other, which issues nothing).
 */
@Injectable()
export class RotateKeyHandler {
  constructor(
    private readonly commands: CommandPipeline,
    private readonly directory: KeyDirectory,
  ) {}

  async execute(current: KeyRecord): Promise<{ key: string; record: KeyRecord }> {
    const replacementId = randomUUID();
    await this.commands.run(revokeKey, { type: 'RevokeApiKey', data: { key_id: current.key_id, reason: 'rotated', replaced_by: replacementId } });
    return issueNewKey(
      this.commands,
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
      replacementId,
    );
  }
}
