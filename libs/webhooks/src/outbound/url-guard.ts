import { isIP } from 'node:net';
import { DomainError } from '../../../platform/src/index.js';
import { addressRefusal, type AddressRefusal } from '../domain/address-policy.js';
import type { HostResolver, ResolvedAddress } from './host-resolver.js';

/** How long resolving a webhook host may take before it counts as unresolvable. */
export const RESOLVE_TIMEOUT_MS = 5000;

export class WebhookUrlNotAllowedError extends DomainError {
  readonly code = 'WEBHOOK_URL_NOT_ALLOWED';
  readonly status = 400;
  override readonly field = 'url';
  constructor(readonly reason: AddressRefusal) {
    super(`url resolves to a ${reason.replace(/_/g, '-')} address; webhooks must reach a public address (WEBHOOK_ALLOW_PRIVATE_URLS)`);
  }
}

export class WebhookUrlUnresolvableError extends DomainError {
  readonly code = 'WEBHOOK_URL_UNRESOLVABLE';
  readonly status = 400;
  override readonly field = 'url';
  constructor() {
    super('the host of url does not resolve');
  }
}

/**
 * Decides which address a webhook request connects to. Every address the name
 * resolves to must pass the policy (a name answering one public and one
 * private address is refused), and the request then connects to exactly the
 * address checked here, so a DNS answer that changes between check and
 * connect (rebinding) cannot slip a private address in.
 */
export class UrlGuard {
  constructor(
    private readonly resolver: HostResolver,
    private readonly allowPrivate: boolean,
  ) {}

  get checksAddresses(): boolean {
    return !this.allowPrivate;
  }

  async target(url: URL): Promise<ResolvedAddress> {
    const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
    const literal = isIP(host);
    const addresses: ResolvedAddress[] = literal ? [{ address: host, family: literal === 6 ? 6 : 4 }] : await this.resolve(host);
    if (!this.allowPrivate) {
      for (const { address } of addresses) {
        const refusal = addressRefusal(address);
        if (refusal) throw new WebhookUrlNotAllowedError(refusal);
      }
    }
    return addresses[0];
  }

  private async resolve(host: string): Promise<ResolvedAddress[]> {
    let timer: NodeJS.Timeout | undefined;
    try {
      const addresses = await Promise.race([
        this.resolver.resolve(host),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new WebhookUrlUnresolvableError()), RESOLVE_TIMEOUT_MS);
        }),
      ]);
      if (addresses.length === 0) throw new WebhookUrlUnresolvableError();
      return addresses;
    } catch (error) {
      if (error instanceof WebhookUrlUnresolvableError) throw error;
      throw new WebhookUrlUnresolvableError();
    } finally {
      clearTimeout(timer);
    }
  }
}
