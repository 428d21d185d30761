import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { SigningKeyRing } from '../../public/signing-key-ring.js';

/** GET /v2/.well-known/jwks.json. */
export class GetJwksQuery extends Query<ReturnType<SigningKeyRing['jwks']>> {}

/** decisions.md: the public JWKS, bare (`{"keys": [...]}`), every key ever used to sign, retired ones included. */
@QueryHandler(GetJwksQuery)
export class GetJwksHandler implements IQueryHandler<GetJwksQuery> {
  constructor(private readonly ring: SigningKeyRing) {}

  async execute(): Promise<ReturnType<SigningKeyRing['jwks']>> {
    return this.ring.jwks();
  }
}
