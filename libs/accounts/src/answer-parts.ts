import { Type } from '@sinclair/typebox';
import { TIERS } from './domain/api-key.js';

/** Answer-schema parts the accounts context repeats (ADR 39). */
export const TierSchema = Type.Union(
  TIERS.map((tier) => Type.Literal(tier)),
  { description: 'The plan tier: it sets the daily limit' },
);

/** `T | null`, as the answers write a value that is not there. */
export const OrNull = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

/** The consumption fields GET /v2/usage answers and GET /v2/me repeats under `usage` (Usage). */
export const UsageFields = {
  window: Type.Literal('rolling_24h', { description: 'Requests are counted over the last 24 hours, not per calendar day' }),
  daily_limit: Type.Integer({ description: 'Requests the key may make in the window' }),
  used: Type.Integer({ description: 'Requests counted in the window, this one included' }),
  remaining: Type.Integer(),
  reset_at: Type.String({ format: 'date-time', description: 'When the oldest counted request leaves the window and frees capacity' }),
};
