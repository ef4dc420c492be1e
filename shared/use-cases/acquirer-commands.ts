import type { AcquirerCommandStore } from '../db/acquirer-command-store';
import { AcquirerRefusedError, AcquirerUnavailableError, type ModificationReceipt, type PaymentAcquirer } from '../domain/acquirer';
import { afterFailure, type AcquirerCommand } from '../domain/acquirer-commands';
import { inJobScope, type JobScope } from '../jobs';
import { METRIC } from '../observability/catalog';
import { logger } from '../observability/logger';
import { countMetric } from '../observability/metrics';
import { acquirerCall } from './acquirer-calls';

export interface AcquirerCommandDeps {
  commands: AcquirerCommandStore;
  acquirer: () => Promise<PaymentAcquirer>;
  now: () => Date;
}

/**
 * Sends one capture or cancel the service owes the acquirer:
 * 1. the call (keyed by the authorisation: a repeat is the same request at the acquirer);
 * 2. taken: the command is done (its outcome comes by notification), a capture's reference kept on its payment;
 * 3. unreachable: due again later, parked after the last attempt; refused: parked at once.
 *    A parked command is counted (AcquirerCommandsParked) and logged for the runbook.
 */
export async function sendCommand(deps: AcquirerCommandDeps, command: AcquirerCommand): Promise<'sent' | 'due' | 'parked'> {
  let receipt: ModificationReceipt;
  try {
    const acquirer = await deps.acquirer();
    receipt = await acquirerCall(command.operation, () =>
      command.operation === 'capture' ? acquirer.capture(command.authorisation, command.amount) : acquirer.cancel(command.authorisation),
    );
  } catch (error) {
    if (!(error instanceof AcquirerUnavailableError || error instanceof AcquirerRefusedError)) throw error;
    const next = afterFailure(command, error, deps.now());
    await deps.commands.reschedule(next);
    if (next.status === 'parked') {
      countMetric(METRIC.acquirerCommandsParked);
      logger.error('acquirer command parked: do it in the acquirer\'s back office (runbook AcquirerCommandsParked)', {
        operation: next.operation,
        paymentId: next.authorisation.paymentId,
        acquirerReference: next.authorisation.acquirerReference,
        attempts: next.attempts,
        failure: next.lastFailure ?? null,
      });
    }
    return next.status;
  }
  await deps.commands.done(command, receipt);
  return 'sent';
}

/** The minute job `send-acquirer-commands`: every command due now, oldest first; answers how many the acquirer took. */
export async function sendDueCommands(deps: AcquirerCommandDeps, now: Date, only?: JobScope): Promise<number> {
  let sent = 0;
  for await (const command of deps.commands.due(now)) {
    if (!inJobScope(command, only)) continue;
    if ((await sendCommand(deps, command)) === 'sent') sent++;
  }
  return sent;
}
