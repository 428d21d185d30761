import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Inject, Injectable, Module, type OnApplicationBootstrap, type OnModuleDestroy, type Provider, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { CommandHandler, CqrsModule, type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { PipelineCommand, PipelineHandler } from '../commands/buses.js';
import { command } from '../commands/command.js';
import { CommandPipeline } from '../commands/command-pipeline.js';
import { EmbeddedEventStore } from '../event-store/embedded/embedded-event-store.js';
import { EventRegistry } from '../events/event-registry.js';
import { Followers } from '../followers/followers.js';
import { LogFollower } from '../followers/log-follower.js';
import { EmbeddedJobQueue } from '../queue/embedded/embedded-job-queue.js';
import { JOB_QUEUE, type JobQueue, type Worker } from '../queue/job-queue.port.js';
import type { ContextDefinition, ProcessRole } from './context-definition.js';
import { checkWiring, watchProcessors, WiringError } from './wiring-check.js';

// A small context, "shop", declared as a real one is: two commands, a query, a projection, a view and a queue.
type Order = { type: 'PlaceOrder' | 'CancelOrder'; id: string };
type OrderPlaced = { type: 'OrderPlaced'; data: { id: string } };
const decider = { initialState: {}, evolve: (state: object) => state, decide: (): OrderPlaced[] => [] };
const placeOrder = command<Order, object, OrderPlaced>({ name: 'shop.place-order', stream: (order) => `order-${order.id}`, decider, onConflict: { retry: 0 } });
const cancelOrder = command<Order, object, OrderPlaced>({ name: 'shop.cancel-order', stream: (order) => `order-${order.id}`, decider, onConflict: { retry: 0 } });
const refundOrder = command<Order, object, OrderPlaced>({ name: 'shop.refund-order', stream: (order) => `order-${order.id}`, decider, onConflict: { retry: 0 } });

class PlaceOrderCommand extends PipelineCommand<Order, object, OrderPlaced> {}
@CommandHandler(PlaceOrderCommand)
class PlaceOrderHandler extends PipelineHandler<Order, object, OrderPlaced> {
  protected readonly definition = placeOrder;
}
class CancelOrderCommand extends PipelineCommand<Order, object, OrderPlaced> {}
@CommandHandler(CancelOrderCommand)
class CancelOrderHandler extends PipelineHandler<Order, object, OrderPlaced> {
  protected readonly definition = cancelOrder;
}
// A second handler class running place-order's declaration (under another command class).
class PlaceOrderAgainCommand extends PipelineCommand<Order, object, OrderPlaced> {}
@CommandHandler(PlaceOrderAgainCommand)
class PlaceOrderAgainHandler extends PipelineHandler<Order, object, OrderPlaced> {
  protected readonly definition = placeOrder;
}
// A variant of place-order's declaration under its name (as record-pings runs its per-customer copy).
class PlaceOrderVariantCommand extends PipelineCommand<Order, object, OrderPlaced> {}
@CommandHandler(PlaceOrderVariantCommand)
class PlaceOrderVariantHandler extends PipelineHandler<Order, object, OrderPlaced> {
  protected readonly definition = { ...placeOrder, awaits: [] };
}
// A handler whose declaration no manifest lists.
class RefundOrderCommand extends PipelineCommand<Order, object, OrderPlaced> {}
@CommandHandler(RefundOrderCommand)
class RefundOrderHandler extends PipelineHandler<Order, object, OrderPlaced> {
  protected readonly definition = refundOrder;
}

class GetOrderQuery extends Query<{ id: string }> {
  constructor(readonly id: string) {
    super();
  }
}
@QueryHandler(GetOrderQuery)
class GetOrderHandler implements IQueryHandler<GetOrderQuery> {
  async execute(query: GetOrderQuery) {
    return { id: query.id };
  }
}
class ListOrdersQuery extends Query<string[]> {}
@QueryHandler(ListOrdersQuery)
class ListOrdersHandler implements IQueryHandler<ListOrdersQuery> {
  async execute() {
    return [];
  }
}

const manifest = {
  name: 'shop',
  events: [],
  commands: [placeOrder, cancelOrder],
  queries: [GetOrderQuery],
  readModels: { projections: ['orders'], views: ['basket'] },
  jobs: ['shop-jobs'],
};

interface Fixture {
  events: EmbeddedEventStore;
  queue: JobQueue;
  followers: Followers;
}

let fixture: Fixture;

/** Starts a queue processor at bootstrap, as a context's lifecycle provider does. */
function processorOf(queueName: string): Type<unknown> {
  @Injectable()
  class Processor implements OnApplicationBootstrap, OnModuleDestroy {
    private worker?: Worker;
    constructor(@Inject(JOB_QUEUE) private readonly queue: JobQueue) {}
    onApplicationBootstrap() {
      this.worker = this.queue.process(queueName, async () => undefined);
    }
    async onModuleDestroy() {
      await this.worker?.close();
    }
  }
  return Processor;
}

/** Registers a follower keeping `readModel`, as registerView and the projection runner do. */
function followerOf(readModel: string): Provider {
  return {
    provide: `follower:${readModel}`,
    useFactory: () => fixture.followers.add(new LogFollower(fixture.events, new EventRegistry(), undefined, { name: readModel, streamPrefixes: [], start: { from: 'beginning' }, sink: { handle: async () => undefined } }), readModel),
  };
}

/** What the shop's modules register in a process that wires it right, per role. */
const fitting = {
  http: [PlaceOrderHandler, CancelOrderHandler, GetOrderHandler, followerOf('basket')],
  worker: [processorOf('shop-jobs'), followerOf('orders')],
};

/** Boots a Nest application of `providers` and runs the wiring check on it in `role`. */
async function boot(role: ProcessRole, providers: Array<Provider>, definition: Partial<ContextDefinition> = {}) {
  @Module({ providers })
  class ShopModule {}
  const platform = {
    module: class TestPlatform {},
    providers: [
      { provide: JOB_QUEUE, useValue: fixture.queue },
      // PipelineHandler's constructor takes the pipeline; these tests never execute a command.
      { provide: CommandPipeline, useValue: {} },
    ],
    exports: [JOB_QUEUE, CommandPipeline],
    global: true,
  };
  const app = await NestFactory.createApplicationContext({ module: class Root {}, imports: [platform, CqrsModule.forRoot(), ShopModule] }, { logger: false, abortOnError: false });
  await app.init();
  const definitions: ContextDefinition[] = [{ manifest, http: ShopModule, worker: ShopModule, ...definition }];
  try {
    return checkWiring(app, role, definitions, fixture.followers, fixture.queue);
  } finally {
    await app.close();
  }
}

/** The refusal's message, or a failure when the check let the process start. */
async function refusal(role: ProcessRole, providers: Array<Provider>, definition?: Partial<ContextDefinition>): Promise<string> {
  try {
    await boot(role, providers, definition);
  } catch (error) {
    if (error instanceof WiringError) return error.message;
    throw error;
  }
  throw new Error('the wiring check let a misfit start');
}

beforeEach(async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'wiring-check-'));
  const queue = await EmbeddedJobQueue.open(path.join(dir, 'queue'));
  watchProcessors(queue);
  fixture = { events: await EmbeddedEventStore.open(path.join(dir, 'events')), queue, followers: new Followers() };
});

afterEach(async () => {
  await fixture.queue.close();
  await fixture.events.close();
});

describe('the wiring check (after Nest start-up)', () => {
  it('lets a process start whose registrations are what its contexts declare, in each role', async () => {
    await expect(boot('all-in-one', [...fitting.http, ...fitting.worker])).resolves.toBeUndefined();
  });

  it('lets the api role start without the background work, and the worker without the HTTP slices', async () => {
    await expect(boot('api', fitting.http)).resolves.toBeUndefined();
    fixture.followers = new Followers();
    await expect(boot('worker', fitting.worker)).resolves.toBeUndefined();
  });

  describe('queue processors', () => {
    it('refuses a declared queue without a processor where background work runs', async () => {
      expect(await refusal('worker', [followerOf('orders')])).toContain('queue shop-jobs (declared by shop) has no processor in the worker process');
    });

    it('refuses a processor in the api role: background work runs in the worker only', async () => {
      expect(await refusal('api', [...fitting.http, processorOf('shop-jobs')])).toContain('queue shop-jobs (shop) is processed in the api process: background work runs in the worker role only');
    });

    it('refuses a processed queue that no manifest declares', async () => {
      expect(await refusal('all-in-one', [...fitting.http, ...fitting.worker, processorOf('stray-jobs')])).toContain('queue stray-jobs is processed but no context declares it (manifest jobs)');
    });
  });

  describe('log followers', () => {
    it('refuses a declared projection without a follower where background work runs', async () => {
      expect(await refusal('worker', [processorOf('shop-jobs')])).toContain('projection orders (declared by shop) has no follower in the worker process');
    });

    it('refuses a projection followed in the api role', async () => {
      expect(await refusal('api', [...fitting.http, followerOf('orders')])).toContain('projection orders (shop) is followed in the api process: projections run in the worker role only');
    });

    it('refuses a view of a context served in the role without its follower', async () => {
      expect(await refusal('api', [PlaceOrderHandler, CancelOrderHandler, GetOrderHandler])).toContain('view basket (declared by shop) has no follower in the api process');
    });

    it('refuses a follower keeping a read model no manifest declares', async () => {
      expect(await refusal('api', [...fitting.http, followerOf('wishlist')])).toContain('a follower keeps wishlist, which no context declares (manifest readModels)');
    });
  });

  describe('command handlers', () => {
    it('refuses a declared command without a @CommandHandler in a role serving the context', async () => {
      expect(await refusal('api', [PlaceOrderHandler, GetOrderHandler, followerOf('basket')])).toBe(
        'the api process is not wired as its contexts declare:\n- command shop.cancel-order (shop) has no @CommandHandler in the api process',
      );
    });

    it('matches a handler with the declaration by name, so a slice may run a variant of it', async () => {
      await expect(boot('api', [PlaceOrderVariantHandler, CancelOrderHandler, GetOrderHandler, followerOf('basket')])).resolves.toBeUndefined();
    });

    it('refuses a declaration run by two handlers', async () => {
      expect(await refusal('api', [...fitting.http, PlaceOrderAgainHandler])).toContain('shop.place-order has 2 handlers: PlaceOrderHandler, PlaceOrderAgainHandler');
    });

    it('refuses a handler whose declaration no manifest lists', async () => {
      expect(await refusal('api', [...fitting.http, RefundOrderHandler])).toContain('command handler RefundOrderHandler runs shop.refund-order, which no context declares (manifest commands)');
    });

    it('accepts the declared handlers a worker module registers for its background work, without the rest of the context', async () => {
      await expect(boot('worker', [...fitting.worker, PlaceOrderHandler], { http: undefined })).resolves.toBeUndefined();
    });

    it('refuses in a worker a handler whose declaration no context declares', async () => {
      expect(await refusal('worker', [...fitting.worker, ListOrdersHandler], { http: undefined })).toContain('ListOrdersHandler');
    });
  });

  describe('query handlers', () => {
    it('refuses a declared query without a @QueryHandler', async () => {
      expect(await refusal('api', [PlaceOrderHandler, CancelOrderHandler, followerOf('basket')])).toContain('query GetOrderQuery (shop) has no @QueryHandler in the api process');
    });

    it('refuses a @QueryHandler for a query no manifest lists', async () => {
      expect(await refusal('api', [...fitting.http, ListOrdersHandler])).toContain('query handler ListOrdersHandler handles ListOrdersQuery, which no context declares (manifest queries)');
    });
  });

  it('names every difference in one refusal', async () => {
    const message = await refusal('all-in-one', [PlaceOrderHandler]);
    expect(message.split('\n- ').slice(1).sort()).toEqual([
      'command shop.cancel-order (shop) has no @CommandHandler in the all-in-one process',
      'projection orders (declared by shop) has no follower in the all-in-one process',
      'query GetOrderQuery (shop) has no @QueryHandler in the all-in-one process',
      'queue shop-jobs (declared by shop) has no processor in the all-in-one process',
      'view basket (declared by shop) has no follower in the all-in-one process',
    ]);
  });
});
