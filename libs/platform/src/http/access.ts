import { SetMetadata } from '@nestjs/common';

/**
 * Access levels of interface.md's "Access" column. Everything not marked is
 * `key`. `account`: a key that belongs to an account (legacy keys get
 * ACCOUNT_KEY_REQUIRED); `banking`: an account provisioned for the banking
 * features, from an allowed IP when it has an allowlist.
 */
export const ACCESS_LEVEL = 'http:access-level';
export type AccessLevel = 'public' | 'key' | 'account' | 'banking' | 'admin';

export const Public = () => SetMetadata(ACCESS_LEVEL, 'public' satisfies AccessLevel);
export const AdminOnly = () => SetMetadata(ACCESS_LEVEL, 'admin' satisfies AccessLevel);
export const AccountOnly = () => SetMetadata(ACCESS_LEVEL, 'account' satisfies AccessLevel);
export const BankingOnly = () => SetMetadata(ACCESS_LEVEL, 'banking' satisfies AccessLevel);

/** The lowest plan tier an endpoint serves (e.g. retail density needs `enterprise`): TIER_REQUIRED below it. */
export const REQUIRED_TIER = 'http:required-tier';
export const RequiresTier = (tier: 'free' | 'basic' | 'pro' | 'enterprise') => SetMetadata(REQUIRED_TIER, tier);
