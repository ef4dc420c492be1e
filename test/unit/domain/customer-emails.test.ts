import { emailDigest, normalizedEmail } from '../../../shared/domain/customer-emails';
import { adjacentId, firstIdAt, idTime, lastIdBefore, newId } from '../../../shared/ids';
import { ceilMillis } from '../../../shared/time';

const KEY = Buffer.from('k'.repeat(64));

describe('customer emails: the index digest (product-decisions §18)', () => {
  test('one address in any case or with surrounding spaces gives one digest; another address another', () => {
    expect(normalizedEmail('  Ann@Example.COM ')).toBe('ann@example.com');
    expect(emailDigest(KEY, 'Ann@Example.com')).toBe(emailDigest(KEY, 'ann@example.com '));
    expect(emailDigest(KEY, 'ann+shop@example.com')).not.toBe(emailDigest(KEY, 'ann@example.com'));
    expect(emailDigest(KEY, 'a.nn@example.com')).not.toBe(emailDigest(KEY, 'ann@example.com'));
  });

  test('the digest is keyed: 43 URL-safe characters, another key another digest, nothing of the address in it', () => {
    const digest = emailDigest(KEY, 'ann@example.com');
    expect(digest).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(emailDigest(Buffer.from('other key'), 'ann@example.com')).not.toBe(digest);
    expect(digest.toLowerCase()).not.toContain('ann');
  });
});

describe('ids as creation bounds: the creation range of a list', () => {
  test('firstIdAt and lastIdBefore bound the ids of a millisecond range, and idTime reads an id back', () => {
    const at = Date.UTC(2026, 10, 28, 12);
    const id = newId('payment', at);
    expect(idTime(id)).toBe(at);
    expect(firstIdAt('payment', at) <= id).toBe(true);
    expect(lastIdBefore('payment', at + 1) >= id).toBe(true);
    expect(lastIdBefore('payment', at) < id).toBe(true);
    expect(firstIdAt('payment', at + 1) > id).toBe(true);
    expect(lastIdBefore('payment', 0)).toBe('pay_');
  });

  test('adjacentId counts the body as one base32 number, carrying across digits, keeping the prefix', () => {
    expect(adjacentId('pay_000z', 1)).toBe('pay_0010');
    expect(adjacentId('pay_0010', -1)).toBe('pay_000z');
    const id = newId('refund', Date.UTC(2026, 0, 1));
    expect(adjacentId(adjacentId(id, 1), -1)).toBe(id);
    expect(adjacentId(id, 1) > id && adjacentId(id, -1) < id).toBe(true);
  });

  test('a datetime between two milliseconds is bounded by the later one; nanoseconds count', () => {
    expect(ceilMillis('2026-11-28T12:00:00Z')).toBe(Date.UTC(2026, 10, 28, 12));
    expect(ceilMillis('2026-11-28T12:00:00.000000001Z')).toBe(Date.UTC(2026, 10, 28, 12) + 1);
    expect(ceilMillis('2026-11-28T13:00:00.0005+01:00')).toBe(Date.UTC(2026, 10, 28, 12) + 1);
  });
});
