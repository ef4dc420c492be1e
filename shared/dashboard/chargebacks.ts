import { DOCUMENT_CONTENT_TYPES, EVIDENCE_TEXTS, type Chargeback, type EvidenceText } from '../domain/chargebacks';
import { escapeHtml } from '../http/page';
import { LIMITS } from '../limits';
import { formatForCustomer } from '../money';
import { defined, lines, optionalInteger, optionalText, formOf, type FormState } from './forms';
import { badge, code, dueText, idLink, money, postForm, signedInPage, time, titledSection, type Frame } from './html';
import { chargebackPagePath, dueBadge, paymentPagePath } from './tables';

/** The dispute form's field of the uploaded documents' ids, comma-separated (its script fills it in). */
const DOCUMENTS_FIELD = 'evidence.documents';

const evidenceField = (text: EvidenceText) => `evidence.${text}`;

/** What each evidence text is, as the dispute form and the dispute's record name it. */
const EVIDENCE_LABELS: Record<EvidenceText, { label: string; hint?: string }> = {
  product_description: { label: 'Product or service', hint: 'What the customer bought and received.' },
  customer_communication: { label: 'Communication with the customer', hint: 'Emails or messages that show the customer agreed or received it.' },
  refund_policy: { label: 'Refund policy', hint: 'The policy the customer accepted, and how it applies.' },
  shipping_tracking_number: { label: 'Shipping tracking number' },
  uncategorized_text: { label: 'Other evidence' },
};

/** The dispute form as `POST /v1/chargebacks/{id}/dispute` takes it: empty texts left out, the documents' ids as a list. */
export function disputeBody(fields: Record<string, string>) {
  const documents = lines(fields[DOCUMENTS_FIELD]);
  return {
    evidence: defined({
      ...Object.fromEntries(EVIDENCE_TEXTS.map((text) => [text, optionalText(fields[evidenceField(text)])])),
      documents: documents.length ? documents : undefined,
    }),
  };
}

/** A chosen file as `POST /v1/chargebacks/{id}/documents` takes it (what the page's script posts). */
export const documentBody = (fields: Record<string, string>) => ({
  filename: fields.filename,
  content_type: fields.content_type,
  size: optionalInteger(fields.size),
});

/** Whether the signed-in key may answer this chargeback now: its scope, `open`, before its deadline (requireAnswerable). */
export const answerable = (frame: Frame, chargeback: Chargeback, now: Date) =>
  frame.principal.scopes.includes('chargeback:update') && chargeback.status === 'open' && now.getTime() < Date.parse(chargeback.deadlineAt);

/**
 * The dispute form's script, the only script of the dashboard (the page's policy names it by its
 * hash): for each chosen file it asks the dashboard for the document and its presigned upload,
 * sends the file to the store with the upload's headers (the browser sets Content-Length itself),
 * and adds the document's id to the form. Long texts do not fit the cookie a refused form comes
 * back in, so the texts are kept in this tab's sessionStorage while the form is sent, and put
 * back when it comes back refused.
 */
export const EVIDENCE_SCRIPT = `(() => {
  const picker = document.getElementById('dispute-chargeback-files');
  if (!picker) return;
  const form = picker.form;
  const field = form.elements.namedItem('${DOCUMENTS_FIELD}');
  const list = document.getElementById('dispute-chargeback-documents');
  const status = document.getElementById('dispute-chargeback-upload-status');
  const submit = form.querySelector('button[type="submit"]');
  const ids = () => field.value.split(',').filter(Boolean);
  const say = (text) => { status.textContent = text; };
  const add = (id, name) => {
    field.value = ids().concat(id).join(',');
    const item = document.createElement('li');
    item.dataset.id = id;
    const label = document.createElement('code');
    label.textContent = id;
    const remove = document.createElement('button');
    remove.type = 'button';
    remove.textContent = 'Remove';
    item.append(name + ' ', label, ' ', remove);
    list.append(item);
  };
  async function upload(file) {
    const declared = await fetch(picker.dataset.url, {
      method: 'POST',
      headers: { accept: 'application/json' },
      body: new URLSearchParams({ csrf_token: form.elements.namedItem('csrf_token').value, page_mode: form.elements.namedItem('page_mode').value, filename: file.name, content_type: file.type, size: String(file.size) }),
    });
    const answer = await declared.json().catch(() => ({ detail: 'The dashboard did not answer (' + declared.status + ')' }));
    if (!declared.ok) throw new Error(file.name + ': ' + answer.detail);
    const headers = Object.entries(answer.upload.headers).filter(([name]) => name.toLowerCase() !== 'content-length');
    const sent = await fetch(answer.upload.url, { method: answer.upload.method, headers, body: file });
    // Read to its end: an answer still open when the form is sent would be cut off.
    await sent.text();
    if (!sent.ok) throw new Error(file.name + ' could not be uploaded (' + sent.status + '): choose it again');
    add(answer.id, file.name);
  }
  picker.addEventListener('change', async () => {
    const files = Array.from(picker.files);
    picker.value = '';
    if (ids().length + files.length > Number(picker.dataset.max)) return say('At most ' + picker.dataset.max + ' documents: remove one first');
    submit.disabled = picker.disabled = true;
    try {
      for (const file of files) {
        say('Uploading ' + file.name + '…');
        await upload(file);
      }
      say(files.length === 1 ? files[0].name + ' is uploaded.' : files.length + ' documents are uploaded.');
    } catch (error) {
      say(error.message);
    } finally {
      submit.disabled = picker.disabled = false;
    }
  });
  list.addEventListener('click', (event) => {
    const item = event.target.closest('button') && event.target.closest('li');
    if (!item) return;
    field.value = ids().filter((id) => id !== item.dataset.id).join(',');
    item.remove();
  });
  const kept = 'dispute ' + form.action;
  const texts = Array.from(form.querySelectorAll('[name^="evidence."]:not([type="hidden"])'));
  const stored = JSON.parse(sessionStorage.getItem(kept) || '{}');
  if (form.querySelector('.field-error') || form.parentElement.querySelector('[role="alert"]')) {
    for (const text of texts) {
      const before = stored[text.name] || '';
      if (before.length > text.value.length && before.startsWith(text.value)) text.value = before;
    }
  }
  sessionStorage.removeItem(kept);
  form.addEventListener('submit', () => sessionStorage.setItem(kept, JSON.stringify(Object.fromEntries(texts.map((text) => [text.name, text.value])))));
})();`;

/** The answers of an open chargeback, before its deadline: accept it, or dispute it with evidence and documents. */
function answerForms(frame: Frame, chargeback: Chargeback, forms: ChargebackForms): string {
  const { urls } = frame;
  const page = chargebackPagePath(urls, chargeback.id);
  const accept = formOf('accept-chargeback', forms.accept);
  const acceptSection = titledSection(
    'accept',
    'Accept',
    `<p class="note">The amount goes back to the cardholder for good; nothing more is asked.</p>
${accept.alert()}
${postForm({ action: `${page}/accept`, frame, kind: 'act', fields: accept.confirm(`Accept this chargeback: ${formatForCustomer(chargeback.amountMinor, chargeback.currency)} stays with the cardholder`), button: 'Accept chargeback' })}`,
  );
  const dispute = formOf('dispute-chargeback', forms.dispute);
  const documentIds = lines(dispute.value(DOCUMENTS_FIELD));
  const texts = EVIDENCE_TEXTS.map((text) => {
    const { label, hint } = EVIDENCE_LABELS[text];
    const limit = `maxlength="${LIMITS.evidence.textLength}"`;
    return text === 'shipping_tracking_number'
      ? dispute.field({ name: evidenceField(text), label, attributes: `${limit} autocomplete="off" spellcheck="false"` })
      : dispute.field({ name: evidenceField(text), label, type: 'textarea', hint, attributes: `rows="4" ${limit}` });
  }).join('\n');
  const documents = `<div class="documents">
<label for="dispute-chargeback-files">Documents</label>
<input id="dispute-chargeback-files" type="file" accept="${DOCUMENT_CONTENT_TYPES.join(',')}" multiple data-url="${escapeHtml(`${page}/documents`)}" data-max="${LIMITS.evidence.documents}" aria-describedby="dispute-chargeback-files-hint dispute-chargeback-upload-status">
<p class="hint" id="dispute-chargeback-files-hint">PDF, PNG or JPEG, up to ${LIMITS.evidence.documentBytes / 1024 / 1024} MB each, at most ${LIMITS.evidence.documents}. Each file is uploaded as soon as it is chosen.</p>
<noscript><p class="hint">Uploading documents needs JavaScript; the texts can be sent without it.</p></noscript>
<p class="hint" id="dispute-chargeback-upload-status" role="status"></p>
<ul class="plain" id="dispute-chargeback-documents">${documentIds.map((id) => `<li data-id="${escapeHtml(id)}">${code(id)} <button type="button">Remove</button></li>`).join('')}</ul>
<input type="hidden" name="${DOCUMENTS_FIELD}" value="${escapeHtml(documentIds.join(','))}">
${dispute.fieldError(DOCUMENTS_FIELD)}
</div>`;
  const disputeSection = titledSection(
    'dispute',
    'Dispute',
    `<p class="note">Send the evidence that the payment was right: at least one text or document. Each text may be up to ${LIMITS.evidence.textLength.toLocaleString('en')} characters.</p>
${dispute.alert()}
${postForm({ action: `${page}/dispute`, frame, fields: `${texts}\n${documents}\n${dispute.confirm('Dispute this chargeback with this evidence: it is sent as it is and cannot be changed')}`, button: 'Dispute chargeback', primary: true })}`,
  );
  return `${acceptSection}\n${disputeSection}`;
}

/** What was sent with the dispute: each text as written, and the documents. */
function disputeRecord(chargeback: Chargeback): string {
  const { dispute } = chargeback;
  if (!dispute) return '';
  const texts = EVIDENCE_TEXTS.filter((text) => dispute.evidence[text] !== undefined).map(
    (text) => `<dt>${escapeHtml(EVIDENCE_LABELS[text].label)}</dt><dd class="evidence" data-field="${evidenceField(text)}">${escapeHtml(dispute.evidence[text]!)}</dd>`,
  );
  const documents = dispute.evidence.documents ?? [];
  return titledSection(
    'disputed',
    'Dispute',
    `<dl class="stacked">
<dt>Submitted</dt><dd>${time(dispute.submitted_at)}</dd>
${texts.join('\n')}
<dt>Documents</dt><dd data-field="${DOCUMENTS_FIELD}">${documents.length ? documents.map(code).join('<br>') : 'none'}</dd>
</dl>`,
  );
}

/** The two answers' forms of a chargeback's page; the one that was submitted shows its problem. */
export interface ChargebackForms {
  accept?: FormState;
  dispute?: FormState;
}

/**
 * A chargeback's page: what the bank reversed and why, the deadline counting down while it is
 * open (an open chargeback is accepted automatically at its deadline), the payment, the
 * acquirer's references, the answers while it can be answered (`answerable`), and what a dispute
 * sent. A refused answer on a chargeback that can no longer be answered shows its reason alone.
 */
export function chargebackPage(frame: Frame, chargeback: Chargeback, now: Date, forms: ChargebackForms = {}): string {
  const { urls } = frame;
  const open = chargeback.status === 'open';
  const deadline = open
    ? `<p class="deadline" data-field="due"><strong>${escapeHtml(capitalized(dueText(chargeback.deadlineAt, now)))}</strong>: answer before ${time(chargeback.deadlineAt)}, or the chargeback is accepted automatically.</p>`
    : '';
  const answering = answerable(frame, chargeback, now);
  const answers = answering
    ? answerForms(frame, chargeback, forms)
    : `${formOf('accept-chargeback', forms.accept).alert()}${formOf('dispute-chargeback', forms.dispute).alert()}`;
  const { acquirer } = chargeback;
  return signedInPage(
    frame,
    `Chargeback ${chargeback.id}`,
    `${deadline}
<dl>
<dt>Status</dt><dd data-field="status">${badge(chargeback.status)}</dd>
<dt>Amount</dt><dd data-field="amount">${money(chargeback.amountMinor, chargeback.currency)}</dd>
<dt>Reason</dt><dd>${code(chargeback.reason.code)} ${escapeHtml(chargeback.reason.description)}</dd>
<dt>Deadline</dt><dd data-field="deadline_at">${time(chargeback.deadlineAt)}${dueBadge(chargeback, now)}</dd>
<dt>Payment</dt><dd>${idLink(paymentPagePath(urls, chargeback.paymentId), chargeback.paymentId)}</dd>
<dt>Acceptor</dt><dd>${code(chargeback.acceptorId)}</dd>
<dt>Received</dt><dd>${time(chargeback.createdAt)}</dd>
<dt>Updated</dt><dd>${time(chargeback.updatedAt)}</dd>
<dt>Acquirer</dt><dd>${escapeHtml(acquirer.name)}<br><span class="note">Reference ${code(acquirer.reference)}, case ${code(acquirer.case_id)}</span></dd>
<dt>Account</dt><dd>${code(chargeback.consumerAccountNumber)}</dd>
</dl>
${answers}
${disputeRecord(chargeback)}
${answering ? `<script>${EVIDENCE_SCRIPT}</script>` : ''}`,
    '/chargebacks',
  );
}

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
