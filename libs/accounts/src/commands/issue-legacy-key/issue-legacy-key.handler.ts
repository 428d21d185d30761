import { Command, CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { KeyDirectory, type KeyRecord } from '../../public/key-directory.js';
import type { Tier } from '../../domain/api-key.js';
import { issueNewKey, issueThrough, type KeyIssuer } from '../../keys/key-commands.js';

export interface LegacyKeyRequest {
  name: string;
  tier: Tier;
}

function issueLegacy(issue: KeyIssuer, directory: KeyDirectory, request: LegacyKeyRequest): Promise<{ key: string; record: KeyRecord }> {
  return issueNewKey(issue, directory, { kind: 'legacy', account_id: null, name: request.name, email: null, tier: request.tier, expires_at: null, rotated_from: null });
}

/**
 * POST /v2/admin/keys and `npm run ops -- keys:issue` (decisions.md): a key
 * without an account identity; it carries its own tier, and account-scoped
 * endpoints refuse it with ACCOUNT_KEY_REQUIRED. Answers the new key (shown
 * once) and its directory record.
 */
export class IssueLegacyKeyCommand extends Command<{ key: string; record: KeyRecord }> {
  constructor(readonly request: LegacyKeyRequest) {
    super();
  }
}

/** A process of one command: `IssueKeyCommand` through the bus, then the key as the directory holds it. */
@CommandHandler(IssueLegacyKeyCommand)
export class IssueLegacyKeyHandler implements ICommandHandler<IssueLegacyKeyCommand> {
  constructor(
    private readonly commands: CommandBus,
    private readonly directory: KeyDirectory,
  ) {}

  execute({ request }: IssueLegacyKeyCommand): Promise<{ key: string; record: KeyRecord }> {
    return issueLegacy(issueThrough(this.commands), this.directory, request);
  }
}
