import type { Projection } from '../libs/platform/src/index.js';
import { accessLogProjection } from './access-log/access-log.projection.js';
import { collectionLoansProjection } from './collection-loans/collection-loans.projection.js';
import { consentsProjection } from './consents/consents.projection.js';
import { driftStateProjection } from './drift-state/drift-state.projection.js';
import { geofencesProjection } from './geofences/geofences.projection.js';
import { identitySignalsProjection } from './identity-signals/identity-signals.projection.js';
import { landmarkReportsProjection } from './landmark-reports/landmark-reports.projection.js';
import { locatorSharesProjection } from './locator-shares/locator-shares.projection.js';
import { reverificationSchedulesProjection } from './reverification-schedules/reverification-schedules.projection.js';
import { webhookDeliveriesProjection } from './webhook-deliveries/webhook-deliveries.projection.js';

/**
 * Every read model the service keeps; the runner and `ops projections:rebuild`
 * use this list. Each context's manifest claims its projections by name
 * (`readModels.projections`); start-up refuses one claimed by none or two.
 */
export const projections: readonly Projection[] = [accessLogProjection, driftStateProjection, webhookDeliveriesProjection, geofencesProjection, landmarkReportsProjection, identitySignalsProjection, locatorSharesProjection, collectionLoansProjection, reverificationSchedulesProjection, consentsProjection];

export { accessLogProjection, driftStateProjection, webhookDeliveriesProjection, geofencesProjection, landmarkReportsProjection, identitySignalsProjection, locatorSharesProjection, collectionLoansProjection, reverificationSchedulesProjection, consentsProjection };
export type { AccessLogDoc } from './access-log/access-log.projection.js';
