import { putAttempt } from '../../support/dashboard';
import { outboxEvents } from '../../support/events';
import { expectEnvelope } from '../../support/http';
import { startMerchantStack, type Api, type Merchant, type TestStack } from '../../support/stack';

/** GET /v1/events/:id/deliveries follows the list rules (decisions §2): limit, cursors, unknown parameters. */
let stack: TestStack;
let merchant: Merchant;
let api: Api;
let eventId: string;

beforeAll(async () => {
  ({ stack, merchant, api } = await startMerchantStack());
  await api.post('/v1/payment_links', { amount: { value: '3.00', currency: 'EUR' }, acceptor_id: merchant.acceptorId });
  eventId = (await outboxEvents(stack, merchant.orgId, 'test'))[0].id;
  for (let attempt = 1; attempt <= 3; attempt++) {
    const at = new Date(Date.UTC(2026, 10, 23, 10, 0, attempt)).toISOString();
    await putAttempt(stack, eventId, { attempt, at, url: 'https://hooks.example/a', statusCode: attempt === 3 ? 200 : 500, durationMs: 10 });
  }
});
afterAll(() => stack?.stop());

describe('Event deliveries: a list like the others', () => {
  test('pages oldest first with limit and starting_after / ending_before; has_more says what lies beyond', async () => {
    const all = (await api.get(`/v1/events/${eventId}/deliveries`)).body;
    expect(all.data.map((attempt: { attempt: number }) => attempt.attempt)).toEqual([1, 2, 3]);
    expect(all.has_more).toBe(false);
    const first = (await api.get(`/v1/events/${eventId}/deliveries?limit=2`)).body;
    expect(first.data.map((attempt: { attempt: number }) => attempt.attempt)).toEqual([1, 2]);
    expect(first.has_more).toBe(true);
    const next = (await api.get(`/v1/events/${eventId}/deliveries?limit=2&starting_after=${first.data[1].id}`)).body;
    expect(next).toMatchObject({ has_more: false, data: [{ attempt: 3 }] });
    const before = (await api.get(`/v1/events/${eventId}/deliveries?limit=1&ending_before=${next.data[0].id}`)).body;
    expect(before).toMatchObject({ has_more: true, data: [{ attempt: 2 }] });
  });

  test('attempts to several targets interleave oldest first, and page across targets', async () => {
    // Prepare
    await api.post('/v1/payment_links', { amount: { value: '4.00', currency: 'EUR' }, acceptor_id: merchant.acceptorId });
    const other = (await outboxEvents(stack, merchant.orgId, 'test')).at(-1)!.id;
    const at = (second: number) => new Date(Date.UTC(2026, 10, 23, 11, 0, second)).toISOString();
    for (const [second, targetKey, attempt] of [[1, 'whk_b', 1], [2, 'whk_a', 1], [3, 'whk_b', 2], [4, 'whk_a', 2], [5, 'whk_b', 3]] as const) {
      await putAttempt(stack, other, { attempt, at: at(second), url: `https://hooks.example/${targetKey}`, statusCode: 500, durationMs: 10, targetKey });
    }

    // Act
    const first = (await api.get(`/v1/events/${other}/deliveries?limit=3`)).body;
    const rest = (await api.get(`/v1/events/${other}/deliveries?limit=3&starting_after=${first.data[2].id}`)).body;

    // Assess
    const seen = [...first.data, ...rest.data].map((attempt: { attempted_at: string; endpoint: string }) => [attempt.attempted_at, attempt.endpoint.split('/').at(-1)]);
    expect(seen).toEqual([1, 2, 3, 4, 5].map((second) => [at(second), second % 2 ? 'whk_b' : 'whk_a']));
    expect([first.has_more, rest.has_more]).toEqual([true, false]);
  });

  test('bad list parameters: unknown -> 400, limit out of range or a cursor of no attempt of this event -> 422', async () => {
    expectEnvelope(await api.get(`/v1/events/${eventId}/deliveries?page=2`), 400);
    expectEnvelope(await api.get(`/v1/events/${eventId}/deliveries?limit=0`), 422, 'limit');
    expectEnvelope(await api.get(`/v1/events/${eventId}/deliveries?starting_after=dla_bm9wZQ`), 422, 'starting_after');
    expectEnvelope(await api.get(`/v1/events/${eventId}/deliveries?starting_after=nope`), 422, 'starting_after');
  });
});
