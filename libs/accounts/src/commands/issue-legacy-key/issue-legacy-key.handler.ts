import { Command, CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { CommandPipeline } from '../../../../platform/src/index.js';
import { KeyDirectory, type KeyRecord } from '../../public/key-directory.js';
import type { Tier } from '../../domain/api-key.js';
import { issueKey, issueNewKey, issueThrough, type KeyIssuer } from '../issue-key/issue-key.handler.js';

export interface LegacyKeyRequest {
  name: string;
  tier: Tier;
}

function issueLegacy(issue: KeyIssuer, directory: KeyDirectory, request: LegacyKeyRequest): Promise<{ key: string; record: KeyRecord }> {
  return issueNewKey(issue, directory, { kind: 'legacy', account_id: null, name: request.name, email: null, tier: request.tier, expires_at: null, rotated_from: null });
}

/**
 * A key without an account identity (decisions.md, POST /v2/admin/keys and
 * `npm run ops -- keys:issue`): it carries its own tier, and account-scoped
 * endpoints refuse it with ACCOUNT_KEY_REQUIRED. Runs `issueKey`; this form is
 * the operator CLI's, which runs outside Nest with the pipeline alone.
 */
export function issueLegacyKey(commands: CommandPipeline, directory: KeyDirectory, request: LegacyKeyRequest): Promise<{ key: string; record: KeyRecord }> {
  return issueLegacy((input) => commands.run(issueKey, input), directory, request);
}

/** POST /v2/admin/keys: the new key (shown once) and its directory record. */
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
