import type { Chargeback } from '../domain/chargebacks';
import { escapeHtml } from '../http/page';
import { badge, code, dueText, idLink, money, signedInPage, time, type Frame } from './html';
import { dueBadge, paymentPagePath } from './tables';

/**
 * A chargeback's page: what the bank reversed and why, the deadline counting down while it is
 * open (an open chargeback is accepted automatically at its deadline), the payment, and the
 * acquirer's references.
 */
export function chargebackPage(frame: Frame, chargeback: Chargeback, now: Date): string {
  const { urls } = frame;
  const open = chargeback.status === 'open';
  const deadline = open
    ? `<p class="deadline" data-field="due"><strong>${escapeHtml(capitalized(dueText(chargeback.deadlineAt, now)))}</strong>: answer before ${time(chargeback.deadlineAt)}, or the chargeback is accepted automatically.</p>`
    : '';
  const { acquirer } = chargeback;
  return signedInPage(
    frame,
    `Chargeback ${chargeback.id}`,
    `${deadline}
<dl>
<dt>Status</dt><dd>${badge(chargeback.status)}</dd>
<dt>Amount</dt><dd data-field="amount">${money(chargeback.amountMinor, chargeback.currency)}</dd>
<dt>Reason</dt><dd>${code(chargeback.reason.code)} ${escapeHtml(chargeback.reason.description)}</dd>
<dt>Deadline</dt><dd data-field="deadline_at">${time(chargeback.deadlineAt)}${dueBadge(chargeback, now)}</dd>
<dt>Payment</dt><dd>${idLink(paymentPagePath(urls, chargeback.paymentId), chargeback.paymentId)}</dd>
<dt>Acceptor</dt><dd>${code(chargeback.acceptorId)}</dd>
<dt>Received</dt><dd>${time(chargeback.createdAt)}</dd>
<dt>Updated</dt><dd>${time(chargeback.updatedAt)}</dd>
<dt>Acquirer</dt><dd>${escapeHtml(acquirer.name)}<br><span class="note">Reference ${code(acquirer.reference)}, case ${code(acquirer.case_id)}</span></dd>
<dt>Account</dt><dd>${code(chargeback.consumerAccountNumber)}</dd>
</dl>`,
    '/chargebacks',
  );
}

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
