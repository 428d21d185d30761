import { Inject } from '@nestjs/common';
import { Command, CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, CommandPipeline, CUSTOMER_ID_MESSAGE, type Clock } from '../../../../platform/src/index.js';
import { CUSTOMER_ID } from '../../domain/consent.js';
import { checkPing, ConsentRequiredError, pingOutcomes, type IndexedPing, type PingOutcome } from '../../domain/location.js';
import { recordPings, RecordPingsCommand } from './record-pings.handler.js';

/** Customers of one request processed at once. */
const CUSTOMER_CONCURRENCY = 8;

export interface PingsResult {
  /** One per ping, in request order. */
  outcomes: PingOutcome[];
  /** Global position of the last event written. */
  position?: bigint;
}

/** POST /v2/monitoring/pings: one request's pings, of any number of customers. */
export class RecordPingBatchCommand extends Command<PingsResult> {
  constructor(
    readonly accountId: string,
    readonly pings: readonly Record<string, unknown>[],
    /** false: answer without waiting for the read models (the ping benchmark measures ingestion alone). */
    readonly settle = true,
  ) {
    super();
  }
}

/**
 * The request's process: validates each ping on its own, dispatches one
 * RecordPingsCommand per customer (several customers at once), and answers
 * one outcome per ping once the drift read model shows them (one wait, for
 * the highest position written).
 */
@CommandHandler(RecordPingBatchCommand)
export class RecordPingBatchHandler implements ICommandHandler<RecordPingBatchCommand, PingsResult> {
  constructor(
    private readonly bus: CommandBus,
    private readonly commands: CommandPipeline,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ accountId, pings, settle }: RecordPingBatchCommand): Promise<PingsResult> {
    const result = await this.ingest(accountId, pings);
    if (settle && result.position !== undefined) await this.commands.settle(recordPings, result.position);
    return result;
  }

  private async ingest(accountId: string, raw: readonly Record<string, unknown>[]): Promise<PingsResult> {
    const now = this.clock.now();
    const outcomes: PingOutcome[] = [];
    const byCustomer = new Map<string, IndexedPing[]>();
    raw.forEach((ping, index) => {
      const customerId = ping.customer_id;
      if (typeof customerId !== 'string' || !CUSTOMER_ID.test(customerId)) {
        outcomes.push({ index, status: 'refused', error: { code: 'INVALID_PARAM', field: 'customer_id', message: CUSTOMER_ID_MESSAGE } });
        return;
      }
      const checked = checkPing(ping, now);
      if (!checked.ok) {
        outcomes.push({ index, status: 'refused', error: checked.error });
        return;
      }
      const group = byCustomer.get(customerId) ?? [];
      group.push({ index, ...checked.ping });
      byCustomer.set(customerId, group);
    });
    let position: bigint | undefined;
    const groups = [...byCustomer.entries()];
    for (let start = 0; start < groups.length; start += CUSTOMER_CONCURRENCY) {
      const results = await Promise.all(groups.slice(start, start + CUSTOMER_CONCURRENCY).map(([customerId, pings]) => this.recordCustomer(accountId, customerId, pings)));
      for (const result of results) {
        outcomes.push(...result.outcomes);
        if (result.position !== undefined && (position === undefined || result.position > position)) position = result.position;
      }
    }
    outcomes.sort((a, b) => a.index - b.index);
    return { outcomes, position };
  }

  private async recordCustomer(accountId: string, customerId: string, pings: IndexedPing[]): Promise<PingsResult> {
    try {
      const result = await this.bus.execute(new RecordPingsCommand({ type: 'RecordPings', account_id: accountId, customer_id: customerId, pings }));
      const { prepared } = result.command;
      if (!prepared?.collecting) throw new Error('pings were decided without a confirmed consent');
      return { outcomes: pingOutcomes(prepared.pings, result.previous, result.events), position: result.position };
    } catch (error) {
      if (!(error instanceof ConsentRequiredError)) throw error;
      // Refused whole, and nothing of them stored: each ping reports it.
      return { outcomes: pings.map(({ index }) => ({ index, status: 'refused' as const, error: { code: error.code, message: error.message } })) };
    }
  }
}
