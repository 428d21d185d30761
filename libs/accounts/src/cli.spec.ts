import { UsageError } from '../../platform/src/index.js';
import { accountsCli, parseRates } from './cli.js';

describe('npm run ops -- accounts:rates', () => {
  it('reads GROUP=PER_MINUTE pairs; none restores the tier', () => {
    expect(parseRates(['routing=1500', 'transit=600'])).toEqual({ routing: 1500, transit: 600 });
    expect(parseRates([])).toEqual({});
    expect(accountsCli['accounts:rates'].usage).toContain('routing, transit, navigation, language, other');
  });

  it('refuses an unknown group, a group twice, and anything but a whole number from 1 to 1,000,000', () => {
    for (const args of [['routes=5'], ['routing'], ['routing=5=6'], ['routing=0'], ['routing=1000001'], ['routing=2.5'], ['routing=-3'], ['routing=1e3'], ['routing=5', 'routing=6']]) {
      expect(() => parseRates(args)).toThrow(UsageError);
    }
  });
});
