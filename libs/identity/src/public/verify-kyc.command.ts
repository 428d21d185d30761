import { PipelineCommand } from '../../../platform/src/index.js';
import type { VerificationCommand, VerificationEvent, VerificationState } from '../domain/verification.js';

/**
 * The KYC address verification as a command on the bus: identity's HTTP door and banking's
 * scheduled re-verifications dispatch it; identity's handler runs its pipeline declaration.
 */
export type VerifyKyc = Extract<VerificationCommand, { type: 'RecordAddressVerification' }> & {
  account_id: string;
  customer_id: string;
  address: string;
  positions: Array<{ lat: number; lng: number; accuracy_m: number | null; recorded_at?: string; mock_location?: boolean | null }>;
  use_recorded_pings: boolean;
  device_id: string | null;
  phone: string | null;
  email: string | null;
  client_ip: string | null;
};

export class VerifyKycCommand extends PipelineCommand<VerifyKyc, VerificationState, VerificationEvent> {}
