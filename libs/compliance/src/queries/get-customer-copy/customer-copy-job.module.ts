import { Inject, Injectable, Module } from '@nestjs/common';
import { CustomerVerificationsModule } from '../../../../identity/src/index.js';
import { JobResultErasedError, sealedJobResult, type JobKind, type JobKindBinding, type JobRunContext, type SealedJobResult } from '../../../../jobs/src/index.js';
import { MonitoringModule } from '../../../../monitoring/src/index.js';
import { customerDataKeySubject, DATA_KEY_VAULT, READ_STORE, SecretBox, type DataKeyVault, type ReadStore } from '../../../../platform/src/index.js';
import { CustomerDeliveries } from '../../../../webhooks/src/index.js';
import { CheckpointSignerModule } from '../../checkpoints/checkpoint-signer.module.js';
import { CustomerCopies, type CopyPage } from './customer-copies.js';

/** The kind of job a customer's copy asked for with `Prefer: respond-async` is. */
export const CUSTOMER_COPY_KIND = 'customer.copy';

/**
 * What a `customer.copy` job carries on the queue (BullMQ's Redis, or the
 * embedded queue under DATA_DIR, which keeps finished jobs for a while): no
 * customer id in the clear, so the queue names nobody once the customer is
 * erased.
 */
export interface CustomerCopyJobInput extends CopyPage {
  account_id: string;
  /** The customer id sealed under the deployment's SecretBox, bound to the account (customerRef). */
  customer_ref: string;
  /** The id of the customer's data key when the copy was asked for: the result is sealed under it, and it is gone once the customer is erased. */
  key_id: string;
}

/** The associated data that binds a sealed customer id to its account. */
const refContext = (accountId: string) => `customer-copy-job|${accountId}`;

/** The api side: what a copy asked for as a job puts on the queue, the customer's key obtained (created if none) now. */
export async function customerCopyJobInput(vault: DataKeyVault, box: SecretBox, accountId: string, customerId: string, page: CopyPage): Promise<CustomerCopyJobInput> {
  const key = await vault.obtain(customerDataKeySubject(accountId, customerId));
  return { account_id: accountId, customer_ref: box.seal(customerId, refContext(accountId)), key_id: key.id, ...page };
}

/**
 * POST /v2/consent/access-request as a job (docs/adr/0068), run by a worker:
 * the same signed copy the synchronous call answers, kept sealed under the
 * customer's data key the request was accepted under (sealedJobResult), so
 * that erasing the customer (POST /v2/consent/delete-data destroys the key)
 * leaves no readable copy: GET /v2/jobs/{id} and its result answer 410
 * JOB_RESULT_ERASED. A job whose customer was erased before it ran makes
 * nothing and fails with JOB_RESULT_ERASED.
 */
@Injectable()
export class CustomerCopyJob implements JobKind<CustomerCopyJobInput> {
  readonly kind = CUSTOMER_COPY_KIND;

  constructor(
    private readonly copies: CustomerCopies,
    @Inject(DATA_KEY_VAULT) private readonly vault: DataKeyVault,
    private readonly box: SecretBox,
  ) {}

  async run(input: CustomerCopyJobInput, context: JobRunContext): Promise<SealedJobResult> {
    const customerId = this.box.open(input.customer_ref, refContext(input.account_id));
    const subject = customerDataKeySubject(input.account_id, customerId);
    // Erased while the job waited: no copy is made (the processor checks again before it writes one).
    if (!(await this.vault.find(subject, input.key_id))) throw new JobResultErasedError(context.jobId);
    const copy = await this.copies.make(input.account_id, customerId, { cursor: input.cursor, limit: input.limit, cursors: input.cursors });
    return sealedJobResult(subject, input.key_id, copy as unknown as Record<string, unknown>);
  }
}

/** The `customer.copy` kind with what it reads (monitoring's port, webhooks' deliveries) and an on-demand signer, bound to the jobs worker by the composition root. */
@Module({
  // The on-demand signer comes with the audit and identity ports it works through (docs/adr/0065).
  imports: [MonitoringModule, CustomerVerificationsModule, CheckpointSignerModule],
  providers: [
    { provide: CustomerDeliveries, inject: [READ_STORE, SecretBox], useFactory: (readStore: ReadStore, box: SecretBox) => CustomerDeliveries.fromSecretBox(readStore, box) },
    CustomerCopies,
    CustomerCopyJob,
  ],
  exports: [CustomerCopyJob],
})
export class CustomerCopyJobModule {}

/** The `customer.copy` kind as the composition root binds it to the jobs context (apps/shared/contexts.ts). */
export const customerCopyJobBinding: JobKindBinding = { module: CustomerCopyJobModule, provider: CustomerCopyJob };
