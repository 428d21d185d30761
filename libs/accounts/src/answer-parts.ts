import { Type } from '@sinclair/typebox';
import { TIERS } from './domain/api-key.js';

/** Answer-schema parts the accounts context repeats (ADR 39). */
export const TierSchema = Type.Union(
  TIERS.map((tier) => Type.Literal(tier)),
  { description: 'The plan tier: it sets the daily limit' },
);

/** `T | null`, as the answers write a value that is not there. */
export const OrNull = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);
