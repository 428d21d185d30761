import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ChangedConcurrentlyError, CommandPipeline, EmbeddedEventStore, EventRegistry, ReadModels, type EventStore } from '../../../../platform/src/index.js';
import { PasswordHasher } from '../../credentials/index.js';
import { userDecider, userStream, type UserIdentity } from '../../domain/user.js';
import { CurrentPasswordRequiredError } from '../../domain/user-errors.js';
import { accountsEventTypes } from '../../event-types.js';
import { setPassword } from './set-password.handler.js';

const USER_STREAM = { decider: userDecider };
const identity: UserIdentity = { user_id: 'usr_1', account_id: 'acct_1', email: 'ama@example.com' };

describe('set-password through the command pipeline', () => {
  let events: EventStore;
  let hasher: PasswordHasher;
  let commands: CommandPipeline;

  beforeEach(async () => {
    events = await EmbeddedEventStore.open(mkdtempSync(path.join(tmpdir(), 'set-password-')));
    hasher = new PasswordHasher({ cost: 4 });
    const readModels = new ReadModels().register('sign_in_directory', { waitFor: async () => undefined });
    commands = new CommandPipeline(events, new EventRegistry().register(...accountsEventTypes), readModels, { now: () => new Date('2026-11-23T10:00:00.000Z') }, {
      waitMs: 100,
      resolve: (token) => {
        if (token !== PasswordHasher) throw new Error(`unexpected token ${String(token)}`);
        return hasher;
      },
    });
  });
  afterEach(() => events.close());

  const set = (password: string, current?: string) => commands.run(setPassword, { type: 'SetPassword', identity, secrets: { password, current_password: current } });
  const storedHash = async () => {
    const { state } = await commands.read(USER_STREAM, userStream('usr_1'));
    return state.status === 'registered' ? state.password?.hash : undefined;
  };

  it('attaches, then changes only with the current password checked against the stored hash', async () => {
    await set('kelewele at midnight');
    const first = await storedHash();
    await expect(hasher.verify('kelewele at midnight', first!)).resolves.toBe(true);
    await expect(set('jollof-rice-Kumasi-Tuesday')).rejects.toBeInstanceOf(CurrentPasswordRequiredError);
    const { events: changed } = await set('jollof-rice-Kumasi-Tuesday', 'kelewele at midnight');
    expect(changed.map((event) => event.type)).toEqual(['UserPasswordChanged']);
    await expect(hasher.verify('jollof-rice-Kumasi-Tuesday', (await storedHash())!)).resolves.toBe(true);
  });

  it('answers 409 CONCURRENCY_CONFLICT, never a decision on another state, when the password changes between the check and the append', async () => {
    await set('kelewele at midnight');
    // Another request changes the password while this one is checking the current password against the old hash.
    const verify = hasher.verify.bind(hasher);
    let raced = false;
    hasher.verify = async (password, hash) => {
      const verdict = await verify(password, hash);
      if (!raced) {
        raced = true;
        const [last] = await events.readStream(userStream('usr_1'), { direction: 'backwards', maxCount: 1 });
        await events.append(userStream('usr_1'), [{ type: 'UserPasswordChanged', data: { user_id: 'usr_1', password_hash: await hasher.hash('someone else entirely'), changed_at: 'x' }, metadata: { schema_version: 1 } }], last.revision);
      }
      return verdict;
    };
    const error = await set('jollof-rice-Kumasi-Tuesday', 'kelewele at midnight').catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ChangedConcurrentlyError);
    expect(error).toMatchObject({ code: 'CONCURRENCY_CONFLICT', status: 409 });
    // The other request's password stands; the verdict on the old one was not applied to it.
    await expect(hasher.verify('someone else entirely', (await storedHash())!)).resolves.toBe(true);
  });
});
