import { Webhook } from 'standardwebhooks';
import type { components } from './generated/api';

type Event = components['schemas']['Event'];

/** A webhook endpoint's handler: verify, drop duplicates, narrow by `type`. */
export function webhookConsumer(secret: string, seen = new Set<string>()) {
  const webhook = new Webhook(secret); // "whsec_…"
  return (rawBody: string, headers: Record<string, string>): string => {
    // Throws when the signature or the timestamp is wrong; rawBody exactly as received.
    const event = webhook.verify(rawBody, headers) as Event;
    // At least once: the same event can arrive again (keep `seen` in your database).
    if (seen.has(event.id)) return `duplicate ${event.id}`;
    seen.add(event.id);
    switch (event.type) {
      case 'transactions.payment.paid':
        return `payment ${event.data.id} paid ${event.data.amount.value} ${event.data.amount.currency}`;
      case 'transactions.refund.pending':
        return `refund ${event.data.id} pending, on hold: ${event.data.on_hold}`;
      default:
        return `ignored ${event.type}`;
    }
  };
}
