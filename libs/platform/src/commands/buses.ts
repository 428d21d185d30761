import { Injectable } from '@nestjs/common';
import { Command, type ICommandHandler } from '@nestjs/cqrs';
import type { DomainEvent } from '../events/event-stream.js';
import type { AnyCommandDefinition, CommandDefinition, CommandResult } from './command.js';
import { CommandPipeline } from './command-pipeline.js';

/**
 * A command as `@nestjs/cqrs` dispatches it: a class carrying the input of one
 * pipeline declaration. `CommandBus.execute(new GrantConsentCommand(input))`
 * answers what `CommandPipeline.run` answers (docs/adr/0015): the bus
 * dispatches, the pipeline executes.
 */
export abstract class PipelineCommand<Input, State, Event extends DomainEvent> extends Command<CommandResult<State, Event, Input>> {
  constructor(readonly input: Input) {
    super();
  }
}

/**
 * A `@CommandHandler` that runs one declaration of its context's manifest
 * with more around it than the pipeline does (minting a code, hashing a
 * reporter, shaping the answer from the read model): it names the
 * declaration, so the start-up wiring check can match it with the manifest.
 */
export interface DeclaredCommandHandler {
  declaration(): AnyCommandDefinition;
}

/**
 * The `@CommandHandler` of a pipeline command: runs the slice's declaration
 * through the pipeline, which loads, decides, seals, appends, retries and
 * awaits. A slice's handler is this class with its `definition`:
 *
 *     @CommandHandler(GrantConsentCommand)
 *     export class GrantConsentHandler extends PipelineHandler<GrantConsent, ConsentState, ConsentEvent> {
 *       protected readonly definition = grantConsent;
 *     }
 */
@Injectable()
export abstract class PipelineHandler<Input, State, Event extends DomainEvent, Deps = Record<string, never>>
  implements ICommandHandler<PipelineCommand<Input, State, Event>, CommandResult<State, Event, Input>>, DeclaredCommandHandler
{
  protected abstract readonly definition: CommandDefinition<Input, State, Event, Deps>;

  constructor(private readonly pipeline: CommandPipeline) {}

  /** The declaration it runs: the wiring check matches it with the context's manifest (`commands`). */
  declaration(): AnyCommandDefinition {
    return this.definition;
  }

  execute(command: PipelineCommand<Input, State, Event>): Promise<CommandResult<State, Event, Input>> {
    return this.pipeline.run(this.definition, command.input);
  }
}
