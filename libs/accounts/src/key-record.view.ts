import type { KeyRecord } from './public/key-directory.js';
import { dailyLimitOf } from './quota.js';

/** interface.md, "API key record (returned by signup)"; also answers rotation. */
export function keyRecordView(record: KeyRecord, key: string) {
  return {
    id: record.record_id,
    name: record.name,
    email: record.email,
    key,
    key_prefix: record.key_prefix,
    tier: record.tier,
    daily_limit: dailyLimitOf(record.tier),
    expires_at: record.expires_at,
    note: 'Store this key now: it is shown only once and cannot be recovered.',
  };
}
