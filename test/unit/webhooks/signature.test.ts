import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { newSigningSecret, SIGNING_SECRET_PREFIX, webhookSignature } from '../../../shared/domain/webhooks';

/** Signing is node:crypto's HMAC; the reference library must compute and accept the same signature. */
describe('webhookSignature', () => {
  const bodies = ['{}', '{"id":"evt_1","data":{"description":"Café – 10 €, 日本語, 🎉"}}', JSON.stringify({ pad: 'x'.repeat(70_000) })];

  test.each(bodies.map((body) => [body.slice(0, 24), body]))('the same signature as standardwebhooks for %s', (_label, body) => {
    for (let round = 0; round < 20; round += 1) {
      const secret = newSigningSecret();
      const id = `evt_${randomBytes(8).toString('hex')}`;
      const at = new Date(1_700_000_000_000 + round * 123_457);
      const unixSeconds = Math.floor(at.getTime() / 1000);
      const signature = webhookSignature(secret, id, unixSeconds, body);
      expect(signature).toBe(new Webhook(secret).sign(id, at, body));
      // A receiver's check within its tolerance accepts it.
      const now = jest.spyOn(Date, 'now').mockReturnValue(at.getTime());
      try {
        expect(new Webhook(secret).verify(body, { 'webhook-id': id, 'webhook-timestamp': String(unixSeconds), 'webhook-signature': signature })).toEqual(JSON.parse(body));
      } finally {
        now.mockRestore();
      }
    }
  });

  test('a secret without its whsec_ prefix signs the same (the key is the base64 after it)', () => {
    const secret = newSigningSecret();
    const at = new Date('2026-11-23T10:00:00Z');
    expect(webhookSignature(secret.slice(SIGNING_SECRET_PREFIX.length), 'evt_1', at.getTime() / 1000, '{}')).toBe(new Webhook(secret).sign('evt_1', at, '{}'));
  });

  test('another secret, id, time or body gives another signature', () => {
    const secret = newSigningSecret();
    const base = webhookSignature(secret, 'evt_1', 1_700_000_000, '{"a":1}');
    expect(webhookSignature(newSigningSecret(), 'evt_1', 1_700_000_000, '{"a":1}')).not.toBe(base);
    expect(webhookSignature(secret, 'evt_2', 1_700_000_000, '{"a":1}')).not.toBe(base);
    expect(webhookSignature(secret, 'evt_1', 1_700_000_001, '{"a":1}')).not.toBe(base);
    expect(webhookSignature(secret, 'evt_1', 1_700_000_000, '{"a":2}')).not.toBe(base);
  });
});
