import { keepingOpened } from '../../../shared/crypto/opened-secrets';
import { SealedSecretMismatchError, type SealingContext } from '../../../shared/domain/sealing';
import { inProcessSealer } from '../../support/sealer';

/**
 * The deliverer's opened secrets (docs/decisions.md 98): one Decrypt per secret and execution
 * environment for a few minutes, never a stale secret, never a failure kept.
 */
const CONTEXT: SealingContext = { purpose: 'webhook_signing_secret', org_id: 'org_1', webhook_endpoint_id: 'whk_1' };

function counting() {
  const sealer = inProcessSealer();
  const opens: string[] = [];
  return {
    opens,
    sealer: { seal: sealer.seal, open: (sealed: string, context: SealingContext) => (opens.push(sealed), sealer.open(sealed, context)) },
    sealed: sealer.sealed,
  };
}

test('a secret opened is kept for the TTL: the attempts of a warm environment open it once, concurrent ones share that one open', async () => {
  // Prepare
  let clock = 0;
  const { opens, sealer, sealed } = counting();
  const kept = keepingOpened(sealer, { ttlMs: 1_000, maxEntries: 10, now: () => clock });
  const secret = sealed('whsec_a', CONTEXT);
  // Act
  const [a, b] = await Promise.all([kept.open(secret, CONTEXT), kept.open(secret, CONTEXT)]);
  clock = 999;
  const c = await kept.open(secret, CONTEXT);
  // Assess
  expect([a, b, c]).toEqual(['whsec_a', 'whsec_a', 'whsec_a']);
  expect(opens).toHaveLength(1);
});

test('after the TTL it is opened again; a new sealed text (a roll) is opened at once, never answered from what was kept', async () => {
  let clock = 0;
  const { opens, sealer, sealed } = counting();
  const kept = keepingOpened(sealer, { ttlMs: 1_000, maxEntries: 10, now: () => clock });
  const before = sealed('whsec_a', CONTEXT);
  await kept.open(before, CONTEXT);
  expect(await kept.open(sealed('whsec_b', CONTEXT), CONTEXT)).toBe('whsec_b');
  clock = 1_000;
  await kept.open(before, CONTEXT);
  expect(opens).toHaveLength(3);
});

test('a failed open is not kept, and what was kept opens for its own context only', async () => {
  const { opens, sealer, sealed } = counting();
  const kept = keepingOpened(sealer, { ttlMs: 60_000, maxEntries: 10 });
  const secret = sealed('whsec_a', CONTEXT);
  await kept.open(secret, CONTEXT);
  const elsewhere = { ...CONTEXT, webhook_endpoint_id: 'whk_2' };
  await expect(kept.open(secret, elsewhere)).rejects.toBeInstanceOf(SealedSecretMismatchError);
  await expect(kept.open(secret, elsewhere)).rejects.toBeInstanceOf(SealedSecretMismatchError);
  expect(opens).toHaveLength(3);
});

test('at most `maxEntries` are kept: the oldest is dropped first', async () => {
  const { opens, sealer, sealed } = counting();
  const kept = keepingOpened(sealer, { ttlMs: 60_000, maxEntries: 2 });
  const [a, b, c] = ['whsec_a', 'whsec_b', 'whsec_c'].map((plaintext) => sealed(plaintext, CONTEXT));
  for (const secret of [a, b, c]) await kept.open(secret, CONTEXT);
  await kept.open(c, CONTEXT);
  await kept.open(b, CONTEXT);
  expect(opens).toHaveLength(3);
  await kept.open(a, CONTEXT);
  expect(opens).toHaveLength(4);
});
