/**
 * The DataKeyVault subject of one customer's own data key (ADR 12):
 * `<account>:<customer>`. Monitoring seals the customer's location stream
 * under it and POST /v2/consent/delete-data destroys it; identity seals the
 * fixes of its verifications and delivery receipts under the same key
 * (ADR 0054), so that one destruction erases both. Service-wide subjects
 * start with `#` and never collide with it.
 */
export function customerDataKeySubject(accountId: string, customerId: string): string {
  return `${accountId}:${customerId}`;
}
