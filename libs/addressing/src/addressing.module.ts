import { Module } from '@nestjs/common';
import { BulkHexcodeController } from './queries/bulk-hexcode/bulk-hexcode.controller.js';
import { LookupController } from './queries/lookup/lookup.controller.js';
import { ParseAddressController } from './queries/parse-address/parse-address.controller.js';
import { ReverseController } from './queries/reverse/reverse.controller.js';

/**
 * Hex codes (interface.md, "Addresses, hex codes and search"; ADR 0009): lookup,
 * reverse, parse and bulk. All computed, no state: nothing to inject.
 */
@Module({
  controllers: [LookupController, ReverseController, ParseAddressController, BulkHexcodeController],
})
export class AddressingModule {}
