import { lookup } from 'node:dns/promises';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/**
 * Turns a webhook host name into addresses. A port, so tests can play a DNS
 * server that answers differently at configure time and at delivery time
 * (DNS rebinding).
 */
export interface HostResolver {
  resolve(hostname: string): Promise<ResolvedAddress[]>;
}

export const HOST_RESOLVER = Symbol('HostResolver');

/** The operating system's resolver (getaddrinfo: /etc/hosts, then DNS), every address it knows. */
export class SystemHostResolver implements HostResolver {
  async resolve(hostname: string): Promise<ResolvedAddress[]> {
    const addresses = await lookup(hostname, { all: true, verbatim: true });
    return addresses.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));
  }
}
