import type { AcquirerCommandStore } from '../../../shared/db/acquirer-command-store';
import { AcquirerRefusedError, AcquirerUnavailableError, type PaymentAcquirer } from '../../../shared/domain/acquirer';
import { MAX_COMMAND_ATTEMPTS, newCommand, type AcquirerCommand } from '../../../shared/domain/acquirer-commands';
import { sendCommand, sendDueCommands } from '../../../shared/use-cases/acquirer-commands';

const NOW = new Date('2026-11-25T12:00:00.000Z');
const authorisation = { paymentId: 'pay_1', acquirerReference: 'AUTH000000000001', merchantAccount: 'ShopECOM' };

/**
 * The captures and cancels the service owes the acquirer (product-decisions §12): sent at once,
 * sent again by the minute job while the acquirer cannot be reached, parked (with an alarm)
 * after the last attempt or at once when the acquirer refuses; never held in memory.
 */
describe('Use case: acquirer commands', () => {
  function world(calls: (() => Promise<unknown>)[]) {
    const stored = new Map<string, AcquirerCommand>();
    const key = (command: AcquirerCommand) => `${command.authorisation.acquirerReference}#${command.operation}`;
    const commands: Partial<AcquirerCommandStore> = {
      async done(command) {
        stored.delete(key(command));
      },
      async reschedule(command) {
        if (stored.has(key(command))) stored.set(key(command), command);
      },
      async *due(now) {
        for (const command of [...stored.values()]) if (command.status === 'due' && Date.parse(command.dueAt) <= now.getTime()) yield command;
      },
    };
    const next = async () => {
      await calls.shift()!();
      return { acquirerReference: 'MOD0000000000001' };
    };
    const acquirer = { capture: next, cancel: next } as Partial<PaymentAcquirer> as PaymentAcquirer;
    const deps = { commands: commands as AcquirerCommandStore, acquirer: async () => acquirer, now: () => NOW };
    const capture = newCommand('capture', authorisation, { orgId: 'org_x', mode: 'live', amount: { minor: 2500, currency: 'EUR' } }, NOW);
    stored.set(key(capture), capture);
    return { deps, capture, stored: () => [...stored.values()] };
  }
  const unreachable = () => Promise.reject(new AcquirerUnavailableError('unreachable'));

  test('taken by the acquirer: nothing is owed any more', async () => {
    const { deps, capture, stored } = world([async () => undefined]);
    expect(await sendCommand(deps, capture)).toBe('sent');
    expect(stored()).toEqual([]);
  });

  test('unreachable: due again after a growing wait, with the attempt and its failure kept', async () => {
    const { deps, capture, stored } = world([unreachable]);
    expect(await sendCommand(deps, capture)).toBe('due');
    expect(stored()).toEqual([{ ...capture, attempts: 1, dueAt: '2026-11-25T12:01:00.000Z', lastFailure: 'unreachable' }]);
  });

  test(`unreachable ${MAX_COMMAND_ATTEMPTS} times: parked, no longer due`, async () => {
    const { deps, capture, stored } = world([unreachable]);
    expect(await sendCommand(deps, { ...capture, attempts: MAX_COMMAND_ATTEMPTS - 1 })).toBe('parked');
    expect(stored()).toEqual([expect.objectContaining({ status: 'parked', attempts: MAX_COMMAND_ATTEMPTS })]);
  });

  test('refused by the acquirer: parked at once (the same request would be refused again)', async () => {
    const { deps, capture, stored } = world([() => Promise.reject(new AcquirerRefusedError('Original pspReference required for this operation', '167'))]);
    expect(await sendCommand(deps, capture)).toBe('parked');
    expect(stored()).toEqual([expect.objectContaining({ status: 'parked', attempts: 1 })]);
  });

  test('the minute job sends what is due and leaves what waits', async () => {
    const { deps, stored } = world([unreachable, async () => undefined]);
    expect(await sendDueCommands(deps, NOW)).toBe(0);
    expect(await sendDueCommands(deps, NOW)).toBe(0);
    expect(await sendDueCommands(deps, new Date(NOW.getTime() + 60_000))).toBe(1);
    expect(stored()).toEqual([]);
  });
});
