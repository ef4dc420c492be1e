import { configuredUrls } from '../config';
import { createAcquirerCommandStore } from '../db/acquirer-command-store';
import { createAcquirerNotificationStore } from '../db/acquirer-notification-store';
import type { NotificationDeps } from '../use-cases/acquirer-notifications';
import { paymentAcquirer } from './acquirer-payments';
import { ACQUIRER_NAME } from './acquirer-secret';
import { chargebacksFor } from './chargebacks';
import { checkoutFor } from './checkout';
import { refundPortsFor, releaseWith } from './refunds';
import { once, processWiring, type Wiring } from './wiring';

/** What processing the acquirer's notifications needs: the checkout's, refunds' and chargebacks' ports and the acquirer. */
export function notificationProcessingFor(wiring: Wiring): NotificationDeps {
  const refundPorts = refundPortsFor(wiring);
  const release = releaseWith(refundPorts);
  return {
    ...checkoutFor(wiring)(configuredUrls()),
    onBalanceCredited: (ref) => release.releaseAfterCommit(ref, configuredUrls()),
    notifications: createAcquirerNotificationStore(wiring.db, wiring.tableName),
    commands: createAcquirerCommandStore(wiring.db, wiring.tableName),
    acquirer: paymentAcquirer,
    refundPorts,
    chargebacks: chargebacksFor(wiring, release),
    acquirerName: ACQUIRER_NAME,
  };
}

export const notificationProcessing = /* @__PURE__ */ once(() => notificationProcessingFor(processWiring()));
