import type { CommandPipeline } from '../../../../platform/src/index.js';
import type { KeyDirectory, KeyRecord } from '../../authentication/key-directory.js';
import type { Tier } from '../../domain/api-key.js';
import { issueNewKey } from '../issue-key/issue-key.handler.js';

/**
 * A key without an account identity (decisions.md, POST /v2/admin/keys and
 * `npm run ops -- keys:issue`): it carries its own tier, and account-scoped
 * endpoints refuse it with ACCOUNT_KEY_REQUIRED. Runs `issueKey`.
 */
export function issueLegacyKey(commands: CommandPipeline, directory: KeyDirectory, request: { name: string; tier: Tier }): Promise<{ key: string; record: KeyRecord }> {
  return issueNewKey(commands, directory, { kind: 'legacy', account_id: null, name: request.name, email: null, tier: request.tier, expires_at: null, rotated_from: null });
}
