import { SetMetadata } from '@nestjs/common';

/** Access levels of interface.md's "Access" column. Everything not marked is `Key`. */
export const ACCESS_LEVEL = 'http:access-level';
export type AccessLevel = 'public' | 'key' | 'admin';

export const Public = () => SetMetadata(ACCESS_LEVEL, 'public' satisfies AccessLevel);
export const AdminOnly = () => SetMetadata(ACCESS_LEVEL, 'admin' satisfies AccessLevel);
