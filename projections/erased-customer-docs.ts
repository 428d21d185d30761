import type { CustomerDataErased } from '../libs/monitoring/src/index.js';
import type { Doc, ReadCollection } from '../libs/platform/src/index.js';

/**
 * The documents a read model files under an erased customer: by the customer
 * id kept in the clear before sealing (`by_legacy_customer`) and by the
 * customer's pseudonym (`by_pseudonym`), each index read to its end. Banking's
 * loans and re-verification schedules both keep these two indexes; each
 * projection decides which of the documents the erasure reaches.
 */
export async function docsOfErasedCustomer<T extends Doc>(collection: ReadCollection<T>, erased: CustomerDataErased['data']): Promise<T[]> {
  const { account_id, customer_id, pseudonym } = erased;
  const lookups: Array<[string, string[]]> = [['by_legacy_customer', [account_id, customer_id]]];
  if (typeof pseudonym === 'string') lookups.push(['by_pseudonym', [account_id, pseudonym]]);
  const found: T[] = [];
  for (const [index, equals] of lookups) for await (const batch of collection.scan({ index, equals }, 1000)) found.push(...batch);
  return found;
}
