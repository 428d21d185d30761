import type { Doc, IndexSpec } from '../../../../platform/src/index.js';
import type { ConsentState } from '../../domain/consent.js';

/**
 * The `consents` read model (projections/consents): one document per
 * (account, customer), holding the consent state folded from its stream with
 * the consent decider's own `evolve`, so the list shows what the status shows.
 */
export const CONSENTS_PROJECTION = 'consents';
export const CONSENTS_VERSION = 1;
/** Ordered by customer id within an account: a stable order for cursors (a status change never moves a record between pages). */
export const CONSENTS_INDEXES: IndexSpec[] = [{ name: 'by_account', fields: ['account_id', 'customer_id'] }];

export interface ConsentDoc extends Doc {
  /** `<account>:<customer>`, as the stream names it. */
  id: string;
  account_id: string;
  customer_id: string;
  state: Exclude<ConsentState, { status: 'none' }>;
}
