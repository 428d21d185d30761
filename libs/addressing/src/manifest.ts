import type { ContextManifest } from '../../platform/src/index.js';
import { BulkHexcodeQuery } from './queries/bulk-hexcode/bulk-hexcode.handler.js';
import { LookupQuery } from './queries/lookup/lookup.handler.js';
import { ParseAddressQuery } from './queries/parse-address/parse-address.handler.js';
import { ResolveAddressQuery } from './queries/resolve-address/resolve-address.handler.js';
import { ReverseQuery } from './queries/reverse/reverse.handler.js';

/** What the addressing context brings to a process: queries only (hex codes are computed; resolve reads the places through its port). */
export const addressingManifest: ContextManifest = {
  name: 'addressing',
  events: [],
  queries: [LookupQuery, ReverseQuery, ParseAddressQuery, BulkHexcodeQuery, ResolveAddressQuery],
};
