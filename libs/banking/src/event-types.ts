import type { EventTypeDefinition } from '../../platform/src/index.js';
import { LOAN_EVENT_TYPES } from './domain/loan.js';
import { SCHEDULE_EVENT_TYPES } from './domain/schedule.js';

/** Schema versions and upcasters of the banking context's stored events. */
export const bankingEventTypes: EventTypeDefinition[] = [...LOAN_EVENT_TYPES, ...SCHEDULE_EVENT_TYPES].map((type) => ({ type, version: 1 }));
