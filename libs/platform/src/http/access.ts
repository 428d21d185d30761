import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiExtension } from '@nestjs/swagger';

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

/** The OpenAPI extension that tells the document's finishing step which refusals the level adds (answer-document.ts). */
export const ACCESS_EXTENSION = 'x-access';
const level = (access: AccessLevel) => applyDecorators(SetMetadata(ACCESS_LEVEL, access), ApiExtension(ACCESS_EXTENSION, access));

export const Public = () => level('public');
/** Public, but a valid key sent along names its caller (`request.principal`); quota is not counted. */
export const OptionalKey = () => level('optional-key');
export const AdminOnly = () => level('admin');
export const AccountOnly = () => level('account');
export const BankingOnly = () => level('banking');

/** The lowest plan tier an endpoint serves (e.g. retail density needs `enterprise`): TIER_REQUIRED below it. */
export const REQUIRED_TIER = 'http:required-tier';
export const RequiresTier = (tier: 'free' | 'basic' | 'pro' | 'enterprise') => SetMetadata(REQUIRED_TIER, tier);
