/** The 403 every banking endpoint documents (its guard: BankingOnly and the account's IP allowlist). */
export const BANKING_ACCESS_DOC = '403 ACCOUNT_KEY_REQUIRED, BANKING_ACCESS_REQUIRED (account not provisioned for banking) or IP_NOT_ALLOWED (outside the account allowlist)';
