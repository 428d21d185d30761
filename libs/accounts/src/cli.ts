import type { CommandBus } from '@nestjs/cqrs';
import { ReadModels, systemClock, UsageError, withOperatorBus, type OperatorCommand, type OperatorRuntime } from '../../platform/src/index.js';
import { accountView } from './account.view.js';
import { KeyDirectory } from './public/key-directory.js';
import { ChangeTierCommand, ChangeTierHandler } from './commands/change-tier/change-tier.handler.js';
import { IssueKeyHandler } from './commands/issue-key/issue-key.handler.js';
import { IssueLegacyKeyCommand, IssueLegacyKeyHandler } from './commands/issue-legacy-key/issue-legacy-key.handler.js';
import { ReplaceIpAllowlistCommand, ReplaceIpAllowlistHandler } from './commands/replace-ip-allowlist/replace-ip-allowlist.handler.js';
import { ReplaceRateOverridesCommand, ReplaceRateOverridesHandler } from './commands/replace-rate-overrides/replace-rate-overrides.handler.js';
import { SetBankingAccessCommand, SetBankingAccessHandler } from './commands/set-banking-access/set-banking-access.handler.js';
import { TIERS, type Tier } from './domain/api-key.js';
import { IpAllowlist } from './domain/ip-allowlist.js';
import { isRateGroup, MAX_RATE_OVERRIDE, RATE_GROUPS, type RateOverrides } from './domain/rate-overrides.js';
import { keyRecordView } from './key-record.view.js';

/** The operator's account commands (decisions.md, "Operator interface"): the admin endpoints' own commands. */
export const accountsCli: Readonly<Record<string, OperatorCommand>> = {
  'accounts:banking': {
    usage: 'accounts:banking ACCOUNT_ID true|false',
    run: (runtime, args) => operate(runtime, args, 2, (commands, accountId) => commands.execute(new SetBankingAccessCommand({ type: 'SetBankingAccess', account_id: accountId, enabled: parseBoolean(args[1]) }))),
  },
  'accounts:tier': {
    usage: 'accounts:tier ACCOUNT_ID free|basic|pro|enterprise',
    run: (runtime, args) => operate(runtime, args, 2, (commands, accountId) => commands.execute(new ChangeTierCommand({ type: 'ChangeTier', account_id: accountId, tier: parseTier(args[1]) }))),
  },
  'accounts:ip-allowlist': {
    usage: 'accounts:ip-allowlist ACCOUNT_ID [ENTRY …]   (no entries removes the allowlist)',
    run: (runtime, args) =>
      operate(runtime, args, 1, (commands, accountId) =>
        commands.execute(new ReplaceIpAllowlistCommand({ type: 'ReplaceIpAllowlist', account_id: accountId, entries: [...IpAllowlist.parse(args.slice(1)).entries] })),
      ),
  },
  'accounts:rates': {
    usage: `accounts:rates ACCOUNT_ID [GROUP=PER_MINUTE …]   (groups: ${RATE_GROUPS.join(', ')}; none restores the tier's rates)`,
    run: (runtime, args) =>
      operate(runtime, args, 1, (commands, accountId) => commands.execute(new ReplaceRateOverridesCommand({ type: 'ReplaceRateOverrides', account_id: accountId, rates: parseRates(args.slice(1)) }))),
  },
  'keys:issue': { usage: 'keys:issue NAME free|basic|pro|enterprise   (a legacy key without an account)', run: issueLegacy },
};

function parseBoolean(value: string | undefined): boolean {
  if (value === 'true' || value === 'false') return value === 'true';
  throw new UsageError(`expected true or false, got "${value ?? ''}"`);
}

/** `routing=1500 transit=600`: each group once, each rate a whole number from 1 to MAX_RATE_OVERRIDE. */
export function parseRates(args: string[]): RateOverrides {
  const rates: RateOverrides = {};
  for (const arg of args) {
    const [group, value, extra] = arg.split('=');
    if (extra !== undefined || !group || !isRateGroup(group)) throw new UsageError(`expected GROUP=PER_MINUTE with GROUP one of ${RATE_GROUPS.join(', ')}, got "${arg}"`);
    if (rates[group] !== undefined) throw new UsageError(`${group} is given twice`);
    const rate = /^[0-9]{1,7}$/.test(value ?? '') ? Number(value) : NaN;
    if (!(rate >= 1 && rate <= MAX_RATE_OVERRIDE)) throw new UsageError(`${group}: the rate must be a whole number from 1 to ${MAX_RATE_OVERRIDE}, got "${value ?? ''}"`);
    rates[group] = rate;
  }
  return rates;
}

function parseTier(value: string | undefined): Tier {
  if ((TIERS as readonly string[]).includes(value ?? '')) return value as Tier;
  throw new UsageError(`tier must be one of ${TIERS.join(', ')}`);
}

/**
 * The admin endpoints' own commands, dispatched on the operator bus to the
 * admin endpoints' own handlers: the key directory is read from the log
 * first, and is the read model the commands wait for.
 */
async function withCommands<T>(runtime: OperatorRuntime, run: (commands: CommandBus) => Promise<T>): Promise<T> {
  const directory = new KeyDirectory(runtime.backends.events, runtime.registry);
  await directory.start();
  try {
    return await withOperatorBus(
      {
        events: runtime.backends.events,
        registry: runtime.registry,
        clock: systemClock,
        readModels: new ReadModels().register(KeyDirectory.readModel, directory.follower),
        providers: [
          { provide: KeyDirectory, useValue: directory },
          SetBankingAccessHandler,
          ChangeTierHandler,
          ReplaceIpAllowlistHandler,
          ReplaceRateOverridesHandler,
          IssueKeyHandler,
          IssueLegacyKeyHandler,
        ],
      },
      run,
    );
  } finally {
    await directory.onModuleDestroy();
  }
}

async function operate(runtime: OperatorRuntime, args: string[], minArgs: number, command: (commands: CommandBus, accountId: string) => Promise<{ state: Parameters<typeof accountView>[0] }>): Promise<number> {
  if (args.length < minArgs || !args[0]) throw new UsageError('missing arguments');
  const { state } = await withCommands(runtime, (commands) => command(commands, args[0]));
  process.stdout.write(`${JSON.stringify(accountView(state), null, 2)}\n`);
  return 0;
}

async function issueLegacy(runtime: OperatorRuntime, args: string[]): Promise<number> {
  const [name, tier] = args;
  if (!name) throw new UsageError('missing NAME');
  const { key, record } = await withCommands(runtime, (commands) => commands.execute(new IssueLegacyKeyCommand({ name, tier: parseTier(tier) })));
  process.stdout.write(`${JSON.stringify(keyRecordView(record, key), null, 2)}\n`);
  return 0;
}
