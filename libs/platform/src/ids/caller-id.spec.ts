import { InvalidParamError } from '../errors.js';
import { CUSTOMER_ID_MESSAGE, parseCallerId } from './caller-id.js';

describe('caller ids', () => {
  it('keeps the message clients and the e2e suites match on', () => {
    expect(CUSTOMER_ID_MESSAGE).toBe('customer_id must be 1-128 characters of A-Z, a-z, 0-9, ".", "_", ":" and "-"');
  });

  it.each(['cust-0042', 'a', 'A.b_c:d-9', 'x'.repeat(128)])('accepts %p', (id) => {
    expect(parseCallerId(id, 'customer_id')).toBe(id);
  });

  it.each(['', 'has space', 'x'.repeat(129), 'é', 42, null, undefined])('refuses %p, naming the field', (id) => {
    let thrown: unknown;
    try {
      parseCallerId(id, 'loan_id');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(InvalidParamError);
    expect(thrown).toMatchObject({ field: 'loan_id', message: 'loan_id must be 1-128 characters of A-Z, a-z, 0-9, ".", "_", ":" and "-"' });
  });
});
