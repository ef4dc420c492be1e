import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { ensureTable } from '../../../bin/local/dynamodb-local';
import { createDocumentClient } from '../../../shared/db/client';
import * as keys from '../../../shared/db/keys';
import { createPasskeyStore } from '../../../shared/db/passkey-store';
import { createTwoFactorStore } from '../../../shared/db/two-factor-store';
import { LastSecondFactorError } from '../../../shared/domain/team';
import { SealedSecretMismatchError, type SealingContext, type SecretSealer } from '../../../shared/domain/sealing';
import { totpCode, totpSecretFromText, totpStepAt, TOTP } from '../../../shared/domain/totp';
import { BusinessRuleError } from '../../../shared/errors';
import { newId } from '../../../shared/ids';
import { twoFactorUseCases } from '../../../shared/use-cases/two-factor';
import { personFactors, personInTable } from '../../support/people';

/**
 * Two-factor's use cases on the table (through the contending DynamoDB Local), with a sealer
 * that binds each secret to its context as KMS does (the KMS adapter itself: local-kms.test.ts).
 */
const endpoint = process.env.DYNAMODB_ENDPOINT!;
const db = createDocumentClient({ endpoint });
const tableName = `two-factor-${randomUUID()}`;
let clock = new Date('2026-11-28T12:00:10Z');

/** A sealer that, like KMS, opens a value only with the context it was sealed with. */
const sealer: SecretSealer = {
  seal: async (plaintext, context) => Buffer.from(JSON.stringify({ plaintext, context })).toString('base64'),
  open: async (sealed, context: SealingContext) => {
    const { plaintext, context: bound } = JSON.parse(Buffer.from(sealed, 'base64').toString()) as { plaintext: string; context: SealingContext };
    if (JSON.stringify(Object.entries(bound).sort()) !== JSON.stringify(Object.entries(context).sort())) throw new SealedSecretMismatchError();
    return plaintext;
  },
};
const twoFactor = twoFactorUseCases({ twoFactor: createTwoFactorStore(db, tableName), sealer, now: () => clock });
const later = (seconds: number) => (clock = new Date(clock.getTime() + seconds * 1000));

beforeAll(() => ensureTable(endpoint, tableName));
afterAll(() => db.destroy());

/** A user enrolled: the secret as the page showed it, and the recovery codes. */
async function enrolled() {
  const user = { id: await personInTable(db, tableName), email: `${randomUUID().slice(0, 8)}@example.com` };
  const start = await twoFactor.beginTotpEnrolment(user);
  const secret = totpSecretFromText(start.secretText);
  const { recoveryCodes } = await twoFactor.confirmTotpEnrolment(user.id, totpCode(secret, totpStepAt(clock)));
  return { user, secret, recoveryCodes, start };
}
const codeNow = (secret: Uint8Array, offset = 0) => totpCode(secret, totpStepAt(clock) + offset);

describe('enrolment', () => {
  test('a code from the shown secret confirms it: two-factor is on with 10 recovery codes; the table holds the secret sealed and the codes hashed', async () => {
    // Act
    const { user, recoveryCodes, start } = await enrolled();
    // Assess
    expect(start.keyUri).toBe(`otpauth://totp/Payment%20operations:${encodeURIComponent(user.email)}?issuer=Payment+operations&algorithm=SHA1&secret=${start.secretText}&period=30&digits=6`);
    expect(recoveryCodes).toHaveLength(10);
    expect(await twoFactor.twoFactorStatus(user.id)).toEqual({ enabled: true, enabledAt: clock.toISOString(), recoveryCodesLeft: 10 });
    const items = await Promise.all([keys.totpFactor(user.id), keys.recoveryCodes(user.id), keys.totpEnrolment(user.id)].map((Key) => db.send(new GetCommand({ TableName: tableName, Key }))));
    const stored = JSON.stringify(items.map((item) => item.Item ?? null));
    expect(stored).not.toContain(start.secretText);
    for (const code of recoveryCodes) expect(stored).not.toContain(code.replace(/-/g, ''));
    expect(items[2].Item).toBeUndefined();
    expect(await personFactors(db, tableName, user.id)).toEqual({ twoFactorEnabledAt: clock.toISOString(), passkeyCount: undefined });
  });

  test('a wrong code is 422 beside `code`, and the enrolment waits for a right one', async () => {
    const user = { id: await personInTable(db, tableName), email: 'wrong@example.com' };
    const start = await twoFactor.beginTotpEnrolment(user);
    await expect(twoFactor.confirmTotpEnrolment(user.id, '000000')).rejects.toMatchObject({ constructor: BusinessRuleError, attribute: 'code' });
    await expect(twoFactor.confirmTotpEnrolment(user.id, totpCode(totpSecretFromText(start.secretText), totpStepAt(clock)))).resolves.toMatchObject({ recoveryCodes: expect.any(Array) });
  });

  test('after 15 minutes the enrolment has expired; starting again gives a new secret', async () => {
    const user = { id: await personInTable(db, tableName), email: 'late@example.com' };
    const first = await twoFactor.beginTotpEnrolment(user);
    later(15 * 60);
    await expect(twoFactor.confirmTotpEnrolment(user.id, codeNow(totpSecretFromText(first.secretText)))).rejects.toThrow('The enrolment has expired; start again');
    const second = await twoFactor.beginTotpEnrolment(user);
    expect(second.secretText).not.toBe(first.secretText);
  });

  test('a user with two-factor on cannot start another enrolment (422)', async () => {
    const { user } = await enrolled();
    await expect(twoFactor.beginTotpEnrolment(user)).rejects.toBeInstanceOf(BusinessRuleError);
  });

  test("a secret sealed for one user does not open for another (its context is the user's id)", async () => {
    const { user } = await enrolled();
    const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: keys.totpFactor(user.id) }));
    await expect(sealer.open(Item!.sealedSecret, { purpose: 'totp', user_id: newId('user') })).rejects.toBeInstanceOf(SealedSecretMismatchError);
  });
});

describe('a second factor at sign-in', () => {
  test('a code is accepted once: the confirming code is refused, the next step\'s accepted once', async () => {
    // Prepare
    const { user, secret } = await enrolled();
    // Act and assess
    expect(await twoFactor.proveSecondFactor(user.id, codeNow(secret))).toBeUndefined();
    later(TOTP.periodSeconds);
    expect(await twoFactor.proveSecondFactor(user.id, codeNow(secret))).toBe('totp');
    expect(await twoFactor.proveSecondFactor(user.id, codeNow(secret))).toBeUndefined();
  });

  test('drift: one step behind or ahead is accepted; two steps is not', async () => {
    const { user, secret } = await enrolled();
    later(5 * TOTP.periodSeconds);
    expect(await twoFactor.proveSecondFactor(user.id, codeNow(secret, -2))).toBeUndefined();
    expect(await twoFactor.proveSecondFactor(user.id, codeNow(secret, 2))).toBeUndefined();
    expect(await twoFactor.proveSecondFactor(user.id, codeNow(secret, -1))).toBe('totp');
    expect(await twoFactor.proveSecondFactor(user.id, codeNow(secret, 1))).toBe('totp');
    // The step just accepted was ahead: the current one is now behind it.
    expect(await twoFactor.proveSecondFactor(user.id, codeNow(secret))).toBeUndefined();
  });

  test('the same fresh code sent by five requests at once is accepted by exactly one', async () => {
    const { user, secret } = await enrolled();
    later(TOTP.periodSeconds);
    const code = codeNow(secret);
    const proofs = await Promise.all(Array.from({ length: 5 }, () => twoFactor.proveSecondFactor(user.id, code)));
    expect(proofs.filter((proof) => proof === 'totp')).toHaveLength(1);
  });

  test('a recovery code works once, typed in any case and spacing; an unknown one never', async () => {
    const { user, recoveryCodes } = await enrolled();
    expect(await twoFactor.proveSecondFactor(user.id, recoveryCodes[3].toUpperCase().replace(/-/g, ' '))).toBe('recovery_code');
    expect(await twoFactor.proveSecondFactor(user.id, recoveryCodes[3])).toBeUndefined();
    expect(await twoFactor.proveSecondFactor(user.id, 'abcd-efgh-jkmn-pqrs')).toBeUndefined();
    expect((await twoFactor.twoFactorStatus(user.id)).recoveryCodesLeft).toBe(9);
  });

  test('one recovery code sent by five requests at once is used by exactly one', async () => {
    const { user, recoveryCodes } = await enrolled();
    const proofs = await Promise.all(Array.from({ length: 5 }, () => twoFactor.proveSecondFactor(user.id, recoveryCodes[0])));
    expect(proofs.filter((proof) => proof === 'recovery_code')).toHaveLength(1);
  });

  test('the last recovery code used leaves none', async () => {
    const { user, recoveryCodes } = await enrolled();
    for (const code of recoveryCodes) expect(await twoFactor.proveSecondFactor(user.id, code)).toBe('recovery_code');
    expect((await twoFactor.twoFactorStatus(user.id)).recoveryCodesLeft).toBe(0);
    expect(await twoFactor.proveSecondFactor(user.id, recoveryCodes[0])).toBeUndefined();
  });

  test('a confirmation for a user the table does not hold is refused: no factor without its person', async () => {
    const user = { id: newId('user'), email: 'nobody@example.com' };
    const start = await twoFactor.beginTotpEnrolment(user);
    await expect(twoFactor.confirmTotpEnrolment(user.id, codeNow(totpSecretFromText(start.secretText)))).rejects.toBeInstanceOf(BusinessRuleError);
    expect((await twoFactor.twoFactorStatus(user.id)).enabled).toBe(false);
  });

  test('a user without two-factor proves nothing, whatever the input', async () => {
    const user = newId('user');
    expect(await twoFactor.proveSecondFactor(user, '123456')).toBeUndefined();
    expect(await twoFactor.proveSecondFactor(user, 'abcd-efgh-jkmn-pqrs')).toBeUndefined();
  });
});

describe('recovery codes and turning two-factor off', () => {
  test('regenerating replaces every old code with 10 new ones', async () => {
    const { user, recoveryCodes } = await enrolled();
    const renewed = await twoFactor.regenerateRecoveryCodes(user.id);
    expect(renewed.recoveryCodes).toHaveLength(10);
    expect(await twoFactor.proveSecondFactor(user.id, recoveryCodes[0])).toBeUndefined();
    expect(await twoFactor.proveSecondFactor(user.id, renewed.recoveryCodes[0])).toBe('recovery_code');
  });

  test('turned off: no factor, no codes; neither a code nor a recovery code proves anything; regenerating is 422', async () => {
    const { user, secret, recoveryCodes } = await enrolled();
    expect(await twoFactor.disableTwoFactor(user.id, false)).toBe(true);
    expect(await personFactors(db, tableName, user.id)).toEqual({});
    expect(await twoFactor.disableTwoFactor(user.id, false)).toBe(false);
    later(TOTP.periodSeconds);
    expect(await twoFactor.twoFactorStatus(user.id)).toEqual({ enabled: false, recoveryCodesLeft: 0 });
    expect(await twoFactor.proveSecondFactor(user.id, codeNow(secret))).toBeUndefined();
    expect(await twoFactor.proveSecondFactor(user.id, recoveryCodes[1])).toBeUndefined();
    await expect(twoFactor.regenerateRecoveryCodes(user.id)).rejects.toBeInstanceOf(BusinessRuleError);
  });
});

describe('the last second factor, while the organization requires one', () => {
  const passkeys = createPasskeyStore(db, tableName);
  /** A passkey of the person's, as the registration ceremony stores it (the ceremonies: passkeys.test.ts). */
  const passkey = (credentialId: string) => ({ credentialId, publicKey: 'cose-key', counter: 0, transports: ['internal'], name: 'Laptop', createdAt: clock.toISOString(), deviceType: 'multiDevice' as const, backedUp: true });

  test('turning two-factor off without a passkey, or removing the last passkey without two-factor, is refused, and nothing is removed', async () => {
    const { user } = await enrolled();
    await expect(twoFactor.disableTwoFactor(user.id, true)).rejects.toBeInstanceOf(LastSecondFactorError);
    expect(await twoFactor.twoFactorStatus(user.id)).toMatchObject({ enabled: true, recoveryCodesLeft: 10 });
    await passkeys.add(user.id, passkey('only-one'));
    expect(await twoFactor.disableTwoFactor(user.id, true)).toBe(true);
    await expect(passkeys.remove(user.id, 'only-one', true)).rejects.toBeInstanceOf(LastSecondFactorError);
    expect(await passkeys.list(user.id)).toHaveLength(1);
    expect(await personFactors(db, tableName, user.id)).toEqual({ passkeyCount: 1 });
  });

  test('two-factor and the only passkey removed at the same moment (two tabs): exactly one goes, the person keeps the other', async () => {
    for (let round = 0; round < 5; round++) {
      const { user } = await enrolled();
      await passkeys.add(user.id, passkey(`both-${round}`));
      const outcomes = await Promise.allSettled([twoFactor.disableTwoFactor(user.id, true), passkeys.remove(user.id, `both-${round}`, true)]);
      expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
      expect(outcomes.find((outcome) => outcome.status === 'rejected')).toMatchObject({ reason: expect.any(LastSecondFactorError) });
      const left = await personFactors(db, tableName, user.id);
      expect(!!left.twoFactorEnabledAt !== (left.passkeyCount === 1)).toBe(true);
    }
  });
});
