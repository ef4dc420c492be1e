import type { Mode } from '../auth/principal';
import type { Money } from '../money';
import { isoMillis } from '../time';
import { AcquirerRefusedError, AcquirerUnavailableError, type AuthorisedPayment } from './acquirer';

/**
 * A capture or cancel the service owes the acquirer (product-decisions §12): written in the
 * same transaction as the change that calls for it (a paid payment's capture, a lost
 * payment's cancel), sent at once after the commit, and sent again by the minute job while the
 * acquirer cannot be reached. Nothing is kept in memory: a function that dies between the
 * commit and the call leaves the command due in the table.
 */
export type AcquirerOperation = 'capture' | 'cancel';

export interface AcquirerCommand {
  operation: AcquirerOperation;
  authorisation: AuthorisedPayment;
  /** What a capture takes: the payment's amount. */
  amount: Money;
  orgId: string;
  mode: Mode;
  /**
   * `due` until the acquirer took it, then `sent` until its notification settles it (a
   * CANCELLATION or CAPTURE is bound to a command the service sent); `parked` once retrying
   * stopped (an alarm and a runbook take over).
   */
  status: 'due' | 'sent' | 'parked';
  /** Calls that failed so far. */
  attempts: number;
  /** When it is sent next (the minute job sends what is due). */
  dueAt: string;
  createdAt: string;
  /** Why the last call failed, for the runbook: the acquirer's refusal or what made it unreachable. */
  lastFailure?: string;
}

/**
 * Calls that may fail before a command is parked: with the waits below, about eight hours of an
 * unreachable acquirer (an authorisation stays capturable for days).
 */
export const MAX_COMMAND_ATTEMPTS = 12;
const RETRY_WAIT_MINUTES = [1, 2, 4, 8, 15, 30, 60];

export function newCommand(operation: AcquirerOperation, authorisation: AuthorisedPayment, owner: { orgId: string; mode: Mode; amount: Money }, now: Date): AcquirerCommand {
  const at = isoMillis(now);
  return { operation, authorisation, amount: owner.amount, orgId: owner.orgId, mode: owner.mode, status: 'due', attempts: 0, dueAt: at, createdAt: at };
}

/**
 * The command after a failed call: due again after a growing wait while the acquirer is
 * unreachable, parked after the last attempt or at once when the acquirer refused it (the same
 * request would be refused again).
 */
export function afterFailure(command: AcquirerCommand, error: AcquirerRefusedError | AcquirerUnavailableError, now: Date): AcquirerCommand {
  const attempts = command.attempts + 1;
  const refused = error instanceof AcquirerRefusedError;
  const parked = refused || attempts >= MAX_COMMAND_ATTEMPTS;
  const waitMinutes = RETRY_WAIT_MINUTES[Math.min(attempts, RETRY_WAIT_MINUTES.length) - 1];
  return {
    ...command,
    attempts,
    status: parked ? 'parked' : 'due',
    dueAt: isoMillis(parked ? now : now.getTime() + waitMinutes * 60_000),
    lastFailure: error instanceof AcquirerUnavailableError ? error.failure : error.message,
  };
}
