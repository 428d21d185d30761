import { Type } from '@sinclair/typebox';
import { Nullable } from '../../platform/src/index.js';

/** Schema parts the locator's answers share (ADR 39). */

/** A check-in as viewers see it (domain/position.ts). */
export const positionFields = {
  lat: Type.Number(),
  lng: Type.Number(),
  accuracy_m: Nullable(Type.Number({ description: 'As the device reported it; null when it sent none' })),
  checked_in_at: Type.String({ format: 'date-time' }),
};

export const ACCOUNT_ID_EXAMPLE = 'acct_3f9c2a7b1e4d5c6a8b90';
export const SHARE_ID_EXAMPLE = 'shr_0f5c2a9e4b7d4c1e8a3f6b2d9c0e1a7b';
