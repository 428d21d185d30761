import { SetMetadata } from '@nestjs/common';

/**
 * Access levels of interface.md's "Access" column. Everything not marked is
 * `key`. `account`: a key that belongs to an account (legacy keys get
 * ACCOUNT_KEY_REQUIRED); `banking`: an account provisioned for the banking
 * features, from an allowed IP when it has an allowlist. `optional-key`: a
 * public endpoint that also takes a key: without one the request is anonymous;
 * a key that passes every check of `key` (known, not revoked, not expired,
 * live on the log) names the caller in `request.principal`; any other key is
 * ignored, as if none were sent, and the request stays anonymous.
 */
export const ACCESS_LEVEL = 'http:access-level';
export type AccessLevel = 'public' | 'optional-key' | 'key' | 'account' | 'banking' | 'admin';

export const Public = () => SetMetadata(ACCESS_LEVEL, 'public' satisfies AccessLevel);
/** Public, but a valid key sent along names its caller (`request.principal`); quota is not counted. */
export const OptionalKey = () => SetMetadata(ACCESS_LEVEL, 'optional-key' satisfies AccessLevel);
export const AdminOnly = () => SetMetadata(ACCESS_LEVEL, 'admin' satisfies AccessLevel);
export const AccountOnly = () => SetMetadata(ACCESS_LEVEL, 'account' satisfies AccessLevel);
export const BankingOnly = () => SetMetadata(ACCESS_LEVEL, 'banking' satisfies AccessLevel);

/** The lowest plan tier an endpoint serves (e.g. retail density needs `enterprise`): TIER_REQUIRED below it. */
export const REQUIRED_TIER = 'http:required-tier';
export const RequiresTier = (tier: 'free' | 'basic' | 'pro' | 'enterprise') => SetMetadata(REQUIRED_TIER, tier);
