import { adyenNotifications } from '../acquirer/adyen-notifications';
import { createAcquirerNotificationStore } from '../db/acquirer-notification-store';
import { adyenSecret } from './acquirer-secret';
import { once, onceAsync, processWiring } from './wiring';

/** The check of a delivered batch (Basic credentials, every item's HMAC), built on first use from the secret. */
export const notificationCheck = /* @__PURE__ */ onceAsync(async () => {
  const secret = await adyenSecret();
  return adyenNotifications({ username: secret.notificationUsername, password: secret.notificationPassword, hmacKey: secret.hmacKey });
});

/** Where accepted notifications are kept before they are acknowledged. */
export const notificationStore = /* @__PURE__ */ once(() => {
  const { db, tableName } = processWiring();
  return createAcquirerNotificationStore(db, tableName);
});
