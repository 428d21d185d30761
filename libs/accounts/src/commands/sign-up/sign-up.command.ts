import { Command } from '@nestjs/cqrs';
import type { keyRecordView } from '../../key-record.view.js';

export class SignUpCommand extends Command<ReturnType<typeof keyRecordView>> {
  constructor(
    readonly name: string,
    readonly email: string,
  ) {
    super();
  }
}
