import { Controller, Module, RequestMapping, RequestMethod, type Type } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { AccountOnly, AdminOnly, BankingOnly, NotImplementedError, Public, RequiresTier } from '../../../libs/platform/src/index.js';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
/** interface.md's "Access" column; `key` is every other endpoint (Authentication 1). */
type Access = 'public' | 'key' | 'account' | 'banking' | 'admin' | 'enterprise';

/**
 * Endpoints of interface.md (and decisions.md's implied ones) that later
 * issues build. Until a context registers the real route, they answer
 * 501 NOT_IMPLEMENTED in the envelope, so a client can tell "not yet" from a
 * typo (404) — but only after the same access checks the built endpoint will
 * make, so that a missing or wrong key is never told anything else (issue #10).
 * A route is dropped from here when its context lands.
 */
const PLANNED: Array<[Method[], string, string, Access]> = [
];

const ACCESS_DECORATORS: Record<Access, Array<MethodDecorator & ClassDecorator>> = {
  public: [Public()],
  key: [],
  account: [AccountOnly()],
  banking: [BankingOnly()],
  admin: [AdminOnly()],
  enterprise: [RequiresTier('enterprise')],
};

const ACCESS_RESPONSES: Record<Access, string> = {
  public: '',
  key: 'MISSING_API_KEY or INVALID_API_KEY',
  account: 'MISSING_API_KEY or INVALID_API_KEY; 403 ACCOUNT_KEY_REQUIRED for a key without an account',
  banking: 'MISSING_API_KEY or INVALID_API_KEY; 403 ACCOUNT_KEY_REQUIRED, BANKING_ACCESS_REQUIRED or IP_NOT_ALLOWED',
  admin: 'MISSING_API_KEY or INVALID_API_KEY (the operator key only)',
  enterprise: 'MISSING_API_KEY or INVALID_API_KEY; 403 TIER_REQUIRED below the Enterprise tier',
};

/**
 * One Nest controller for all of them, so the global API-key guard (and its
 * quota, and the access audit) runs exactly as on a built endpoint; the
 * OpenAPI document lists them from the same decorators.
 */
function plannedEndpointsController(): Type<unknown> {
  class PlannedEndpointsController {}
  const prototype = PlannedEndpointsController.prototype as Record<string, unknown>;
  for (const [methods, url, context, access] of PLANNED) {
    for (const method of methods) {
      const name = `${method.toLowerCase()}${url.replace(/[^A-Za-z0-9]+(.)?/g, (_, next: string | undefined) => (next ?? '').toUpperCase())}`;
      const message = `${method} ${url} is specified but not built yet (${context} context)`;
      const descriptor: PropertyDescriptor = {
        value: function notBuilt(): never {
          throw new NotImplementedError(message);
        },
        writable: true,
        configurable: true,
      };
      Object.defineProperty(prototype, name, descriptor);
      const pathParameters = [...url.matchAll(/:([A-Za-z_]+)/g)].map(([, parameter]) => ApiParam({ name: parameter, type: String }));
      const decorators: MethodDecorator[] = [
        RequestMapping({ path: url, method: RequestMethod[method] }),
        ApiTags(context),
        ApiOperation({ summary: 'Specified in interface.md; not built yet' }),
        ApiResponse({ status: 501, description: 'NOT_IMPLEMENTED in the envelope' }),
        ...pathParameters,
        ...ACCESS_DECORATORS[access],
        ...(access === 'public' ? [] : [ApiSecurity('api_key'), ApiResponse({ status: 401, description: ACCESS_RESPONSES[access] })]),
      ];
      const decorated = Reflect.decorate(decorators, prototype, name, descriptor) as PropertyDescriptor | undefined;
      if (decorated) Object.defineProperty(prototype, name, decorated);
    }
  }
  Reflect.decorate([Controller()], PlannedEndpointsController);
  return PlannedEndpointsController;
}

@Module({ controllers: [plannedEndpointsController()] })
export class PlannedEndpointsModule {}
