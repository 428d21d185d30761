import 'reflect-metadata';
import { IsOptional, IsString } from 'class-validator';
import { acceptedProperties, intendedProperty, UnknownPropertyError } from './vocabulary.js';

class Base {
  @IsString()
  customer_id: string;
}
class Request extends Base {
  @IsString()
  address: string;

  @IsOptional()
  @IsString()
  accuracy_m?: string;
}

describe('the vocabulary of unknown properties (docs/adr/0036)', () => {
  it('lists what a request class takes, inherited properties included', () => {
    expect(acceptedProperties(Request).sort()).toEqual(['accuracy_m', 'address', 'customer_id']);
  });

  it.each([
    ['address_code', 'address'],
    ['code', 'address'],
    ['customerId', 'customer_id'],
    ['Customer_ID', 'customer_id'],
    ['accuracy', 'accuracy_m'],
    ['adress', 'address'],
    ['customer_idd', 'customer_id'],
  ])('takes %s to mean %s', (unknown, meant) => {
    expect(intendedProperty(unknown, acceptedProperties(Request))).toBe(meant);
  });

  it('suggests nothing far off, nor a synonym whose word the request does not take', () => {
    expect(intendedProperty('colour', ['lat', 'lng'])).toBeNull();
    expect(intendedProperty('address_code', ['lat', 'lng'])).toBeNull();
    expect(intendedProperty('lt', ['lat', 'lng'])).toBeNull();
  });

  it('words the error with the field to use and the accepted ones', () => {
    const error = new UnknownPropertyError('hex_code', 'hex_code', ['address']);
    expect(error).toMatchObject({ code: 'INVALID_PARAM', status: 400, field: 'hex_code', details: { unknown: 'hex_code', accepted: ['address'], use: 'address' } });
    expect(error.message).toBe('hex_code is not a property of this request (use address); accepted: address');
    expect(new UnknownPropertyError('x', 'x', []).message).toBe('x is not a property of this request; this request takes no properties');
  });
});
