import { InvalidParamError } from '../../../platform/src/errors.js';

/** A phone number as people write it: digits with spaces, dots, dashes, brackets and a leading +; 7 to 15 digits (E.164). */
export const PHONE = /^\+?[0-9 ().-]{7,24}$/;
/** A fix may come from a phone whose clock runs a little fast, and from an offline phone uploading late, but not months late. */
export const MAX_CLOCK_SKEW_MS = 5 * 60_000;
export const MAX_FIX_AGE_MS = 30 * 24 * 3_600_000;

export function checkPhone(phone: string, field = 'phone'): string {
  const digits = phone.replace(/\D/g, '').length;
  if (!PHONE.test(phone) || digits < 7 || digits > 15) throw new InvalidParamError(`${field} must be a phone number of 7 to 15 digits`, field);
  return phone;
}

/** When a fix was taken: `recorded_at` if given (at most 5 minutes ahead, 30 days old), else now. */
export function fixTime(recordedAt: string | undefined | null, now: Date, field = 'recorded_at'): string {
  if (recordedAt === undefined || recordedAt === null) return now.toISOString();
  const at = Date.parse(recordedAt);
  if (Number.isNaN(at)) throw new InvalidParamError(`${field} must be an ISO 8601 time with a time zone`, field);
  if (at > now.getTime() + MAX_CLOCK_SKEW_MS) throw new InvalidParamError(`${field} is more than 5 minutes in the future`, field);
  if (at < now.getTime() - MAX_FIX_AGE_MS) throw new InvalidParamError(`${field} is more than 30 days old`, field);
  return new Date(at).toISOString();
}
