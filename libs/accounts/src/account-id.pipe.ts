import { Injectable, type PipeTransform } from '@nestjs/common';
import { InvalidParamError } from '../../platform/src/index.js';

const ACCOUNT_ID = /^acct_[A-Za-z0-9]{1,64}$/;

/** The `{accountId}` of the operator endpoints: 400 naming it unless it has an account id's shape. */
@Injectable()
export class AccountIdPipe implements PipeTransform<string, string> {
  transform(accountId: string): string {
    if (!ACCOUNT_ID.test(accountId)) throw new InvalidParamError('accountId is not an account id (acct_…)', 'accountId');
    return accountId;
  }
}
