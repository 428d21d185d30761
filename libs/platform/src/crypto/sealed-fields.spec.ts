import { randomBytes } from 'node:crypto';
import { SealedFields } from './sealed-fields.js';
import { SecretBox } from './secret-box.js';

const key = { id: 'key-1', key: Buffer.alloc(32, 0x21) };
const context = SealedFields.context('locator_position-acct_a', 'CheckedIn');

describe('sealed fields', () => {
  it('keeps the envelope and the clear fields, seals the rest as one value, and opens back to the data', () => {
    const fields = new SealedFields();
    const data = { account_id: 'acct_a', lat: 5.6, lng: -0.18, accuracy_m: 8, checked_in_at: '2026-11-23T09:00:00.000Z' };
    const stored = fields.seal(key, context, data, (field) => field === 'account_id' || field === 'checked_in_at', { key_id: key.id });
    expect(Object.keys(stored)).toEqual(['key_id', 'account_id', 'checked_in_at', 'sealed']);
    expect(JSON.stringify(stored)).not.toMatch(/5\.6|0\.18|accuracy/);
    expect(fields.open(key, context, stored, ['key_id'])).toEqual(data);
  });

  it('opens what was sealed before the codec existed: SecretBox over the JSON of the sealed fields, bound to "<stream>|<type>"', () => {
    const stored = { key_id: key.id, account_id: 'acct_a', sealed: SecretBox.fromKey(key.key).seal(JSON.stringify({ lat: 5.6, lng: -0.18 }), 'locator_position-acct_a|CheckedIn') };
    expect(new SealedFields().open(key, context, stored, ['key_id'])).toEqual({ account_id: 'acct_a', lat: 5.6, lng: -0.18 });
  });

  it('refuses another stream, another type or another key', () => {
    const fields = new SealedFields();
    const stored = fields.seal(key, context, { lat: 1 }, () => false);
    expect(() => fields.open(key, SealedFields.context('locator_position-acct_b', 'CheckedIn'), stored, [])).toThrow(/authentication/);
    expect(() => fields.open(key, SealedFields.context('locator_position-acct_a', 'Other'), stored, [])).toThrow(/authentication/);
    expect(() => fields.open({ id: 'key-2', key: randomBytes(32) }, context, stored, [])).toThrow(/different key/);
  });
});
