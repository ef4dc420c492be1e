import { adyenNotifications } from '../acquirer/adyen-notifications';
import { createAcquirerNotificationStore } from '../db/acquirer-notification-store';
import { fromAdyenSecret } from './acquirer-secret';
import { once, processWiring } from './wiring';

/** The check of a delivered batch (Basic credentials, every item's HMAC), built from the secret as last read. */
export const notificationCheck = /* @__PURE__ */ fromAdyenSecret((secret) =>
  adyenNotifications({ username: secret.notificationUsername, password: secret.notificationPassword, hmacKey: secret.hmacKey }),
);

/** Where accepted notifications are kept before they are acknowledged. */
export const notificationStore = /* @__PURE__ */ once(() => {
  const { db, tableName } = processWiring();
  return createAcquirerNotificationStore(db, tableName);
});
