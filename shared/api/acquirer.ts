import { defineReceiver } from './operation';

/** The acquirer's notifications (product-decisions §12): Adyen's standard webhooks, kept, then processed from the table stream. */
export const acquirerNotifications = /* @__PURE__ */ defineReceiver({
  path: '/acquirer/adyen/notifications',
  handler: 'acquirer-notifications',
  table: 'write',
  acquirer: true,
});
