import { addressRefusal } from './address-policy.js';

describe('webhook address policy', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['::1', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.5.4', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link_local'],
    ['fe80::1', 'link_local'],
    ['fc00::1', 'unique_local'],
    ['fd12:3456::1', 'unique_local'],
    ['100.64.0.1', 'carrier_grade_nat'],
    ['224.0.0.1', 'multicast'],
    ['ff02::1', 'multicast'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['255.255.255.255', 'broadcast'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:10.1.2.3', 'private'],
    ['::ffff:169.254.169.254', 'link_local'],
    ['::ffff:7f00:1', 'loopback'],
    ['192.0.2.10', 'special_purpose'],
    ['2001:db8::1', 'special_purpose'],
    ['64:ff9b::a00:1', 'special_purpose'],
    ['2002:a00:1::1', 'special_purpose'],
    ['localhost', 'not_an_ip_address'],
  ])('refuses %s as %s', (address, reason) => {
    expect(addressRefusal(address)).toBe(reason);
  });

  it.each([['93.184.216.34'], ['8.8.8.8'], ['2606:4700:4700::1111'], ['::ffff:93.184.216.34']])('allows the public address %s', (address) => {
    expect(addressRefusal(address)).toBeUndefined();
  });
});
