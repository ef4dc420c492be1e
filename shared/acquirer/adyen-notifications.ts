import type { NotificationRequestItem } from '@adyen/api-library/lib/src/typings/notification/models';
import HmacValidator from '@adyen/api-library/lib/src/utils/hmacValidator';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { AcquirerNotification, AcquirerNotifications } from '../domain/acquirer';
import { notificationItems, translate, type NotificationItem } from './adyen-transformers';

/** What Adyen's standard webhooks are checked with: the notification credentials and the HMAC key (hex). */
export interface AdyenNotificationSettings {
  username: string;
  password: string;
  hmacKey: string;
}

/**
 * Adyen's standard webhooks (Webhooks v1, a `NotificationRequest` batch): the Basic credentials
 * are compared in constant time, then every item's `additionalData.hmacSignature` with the
 * library's `HmacValidator`; only a batch that passes both is read into the port's words.
 * Nothing but the validator is loaded from the library, so the receiving function stays small.
 */
export function adyenNotifications(settings: AdyenNotificationSettings): AcquirerNotifications {
  const validator = new HmacValidator();
  const expected = digest(`${settings.username}:${settings.password}`);
  const signed = (item: NotificationItem) => {
    try {
      // The library types eventCode as the codes it knew when released; any code is signed alike.
      return validator.validateHMAC(item as unknown as NotificationRequestItem, settings.hmacKey);
    } catch {
      // validateHMAC throws on an item without a signature.
      return false;
    }
  };
  return {
    acknowledgement: '[accepted]',
    check({ authorization, body }) {
      const credentials = /^Basic\s+(\S+)$/i.exec(authorization ?? '')?.[1];
      if (!credentials || !timingSafeEqual(digest(Buffer.from(credentials, 'base64').toString('utf8')), expected)) return { accepted: false, reason: 'credentials' };
      const items = notificationItems(body);
      if (!items) return { accepted: false, reason: 'malformed' };
      if (!items.every(signed)) return { accepted: false, reason: 'signature' };
      const translated = items.map(translate);
      if (translated.includes(undefined)) return { accepted: false, reason: 'malformed' };
      const notifications = translated.filter((notification): notification is AcquirerNotification => notification !== null);
      return { accepted: true, notifications, ignored: items.length - notifications.length };
    },
  };
}

/** Equal-length digests, so that the comparison takes the same time whatever was sent. */
const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();
