import { AccountMissingError, decideAccount, evolveAccount, initialAccountState, type AccountCommand, type AccountEvent } from './account.js';

const now = new Date('2026-11-22T08:00:00.000Z');
const replay = (events: AccountEvent[]) => events.reduce(evolveAccount, initialAccountState);
const opened = decideAccount({ type: 'OpenAccount', data: { account_id: 'acct_1', name: 'Ama', email: 'ama@example.com', tier: 'free' }, now }, initialAccountState);

describe('account decider', () => {
  it('opens a free account without banking and without an allowlist', () => {
    expect(replay(opened)).toEqual({
      status: 'open',
      account: { account_id: 'acct_1', name: 'Ama', email: 'ama@example.com', tier: 'free', banking: false, ip_allowlist: [], opened_at: now.toISOString() },
    });
  });

  it('changes tier, banking and allowlist by events', () => {
    let events = [...opened];
    const commands: AccountCommand[] = [
      { type: 'ChangeTier', tier: 'pro', now },
      { type: 'SetBankingAccess', enabled: true, now },
      { type: 'ReplaceIpAllowlist', entries: ['10.0.0.0/8'], now },
    ];
    for (const command of commands) {
      events = [...events, ...decideAccount(command, replay(events))];
    }
    expect(replay(events)).toMatchObject({ account: { tier: 'pro', banking: true, ip_allowlist: ['10.0.0.0/8'] } });
  });

  it('refuses operator actions on an account that does not exist', () => {
    expect(() => decideAccount({ type: 'ChangeTier', tier: 'pro', now }, initialAccountState)).toThrow(AccountMissingError);
  });
});
