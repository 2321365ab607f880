import { describe, expect, it } from 'vitest';
import { checkHost, isPublicAddress, UnresolvableHostError, UnsafeAddressError } from './url-guard.js';

describe('isPublicAddress', () => {
  it.each([
    '0.0.0.0', '127.0.0.1', '127.255.255.254', '10.0.0.1', '10.255.255.255', '172.16.0.1', '172.31.255.255',
    '192.168.1.1', '169.254.169.254', '100.64.0.1', '100.127.255.255', '224.0.0.1', '239.255.255.250',
    '255.255.255.255', '240.0.0.1', '192.0.2.10', '198.51.100.7', '203.0.113.9', '198.18.0.1', '192.0.0.8',
    '::', '::1', 'fe80::1', 'fe80::1%eth0', 'fc00::1', 'fd12:3456::1', 'ff02::1', 'fec0::1', '2001:db8::1',
    '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:10.0.0.1', '::ffff:169.254.169.254', '::127.0.0.1',
    '64:ff9b::7f00:1', '64:ff9b::10.1.2.3', '2002:7f00:1::1', '2002:c0a8:101::1', '2001::1', '100::1',
    'not-an-ip', '',
  ])('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['8.8.8.8', '1.1.1.1', '93.184.216.34', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '2a00:1450:4001:80b::200e', '::ffff:8.8.8.8', '64:ff9b::808:808', '2002:808:808::1'])(
    'accepts %s',
    (address) => {
      expect(isPublicAddress(address)).toBe(true);
    },
  );
});

describe('checkHost', () => {
  const resolver = (map: Record<string, string[]>) => async (host: string) => {
    const addresses = map[host];
    if (!addresses) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

  it('refuses a name when any of its addresses is not public', async () => {
    const resolve = resolver({ 'mixed.example': ['93.184.216.34', '10.0.0.5'], 'good.example': ['93.184.216.34'] });
    await expect(checkHost('mixed.example', resolve)).rejects.toBeInstanceOf(UnsafeAddressError);
    await expect(checkHost('good.example', resolve)).resolves.toEqual([{ address: '93.184.216.34', family: 4 }]);
  });

  it('refuses a name that does not resolve', async () => {
    await expect(checkHost('nowhere.example', resolver({}))).rejects.toBeInstanceOf(UnresolvableHostError);
  });

  it('resolves localhost through the system and refuses it', async () => {
    await expect(checkHost('localhost')).rejects.toBeInstanceOf(UnsafeAddressError);
  });
});
