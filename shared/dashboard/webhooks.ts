import type { Principal } from '../auth/principal';
import type { PublicUrls } from '../config';
import { WEBHOOK_SCOPES, type DeliveryAttempt } from '../domain/dashboard';
import { EVENT_TYPES } from '../domain/event-types';
import { ROLL_OVERLAP } from '../domain/webhook-endpoints';
import type { WebhookSubscription } from '../domain/webhooks';
import { escapeHtml } from '../http/page';
import { ENDPOINT_ATTEMPTS, type EndpointDeliveries, type EventView, type ListView } from '../use-cases/dashboard';
import { copyScriptFor } from './copy-script';
import { formOf, type FormState } from './forms';
import {
  badge,
  eventType,
  idLink,
  missingScope,
  noticeBox,
  pager,
  pageUrl,
  postForm,
  signedInPage,
  table,
  textOrDash,
  time,
  titledSection,
  type Frame,
  type Notice,
  type TableSpec,
} from './html';
import { attemptTable, eventPagePath, webhookPagePath } from './tables';

/**
 * The webhooks pages: the endpoints of the key's organization and mode with their recent
 * deliveries, an endpoint's page with its forms (edit, disable or enable, roll its secret,
 * delete), the form that adds one, and an event's page (its payload, its attempts, a resend).
 * Each form performs the API operation of the same name with its scope (docs/dashboard.md).
 */

/** The key the webhooks list's notices are addressed to (a deletion's). */
export const WEBHOOKS_NOTICE = 'webhooks';

const canWrite = (principal: Principal) => principal.scopes.includes(WEBHOOK_SCOPES.write);
const canResend = (principal: Principal) => principal.scopes.includes('event:resend');

const patterns = (endpoint: WebhookSubscription) => `<ul class="plain">${endpoint.events.map((pattern) => `<li>${eventType(pattern)}</li>`).join('')}</ul>`;

/** An attempt as one line: its result, when, the event (linked) and its type. */
const attemptLine = (urls: PublicUrls, attempt: DeliveryAttempt) =>
  `<li${attempt.succeeded ? '' : ' class="failed"'}>${attempt.succeeded ? badge('Delivered', 'good') : badge('Failed', 'bad')} ${
    attempt.statusCode !== undefined ? `HTTP ${attempt.statusCode}` : 'no response'
  } · ${time(attempt.attemptedAt)} · ${idLink(eventPagePath(urls, attempt.eventId), attempt.eventId)} ${eventType(attempt.eventType)}</li>`;

const endpointTable = (urls: PublicUrls): TableSpec<EndpointDeliveries & { id: string }> => ({
  row: (item) => ` data-id="${escapeHtml(item.id)}"`,
  head: { label: 'Endpoint', cell: (item) => idLink(webhookPagePath(urls, item.id), item.id) },
  columns: [
    { label: 'URL', kind: 'text', cell: ({ endpoint }) => `${escapeHtml(endpoint.url)}${endpoint.description ? `<br><span class="note">${escapeHtml(endpoint.description)}</span>` : ''}` },
    { label: 'Status', cell: ({ endpoint }) => badge(endpoint.status, endpoint.status === 'enabled' ? 'good' : '') },
    { label: 'Events', kind: 'list', cell: ({ endpoint }) => patterns(endpoint) },
    {
      label: 'Recent deliveries',
      kind: 'list',
      cell: ({ attempts }) =>
        !attempts.allowed
          ? missingScope(attempts.scope)
          : attempts.items.length === 0
            ? '<span class="note">None yet</span>'
            : `<ul class="attempts">${attempts.items.map((attempt) => attemptLine(urls, attempt)).join('')}</ul>`,
    },
  ],
});

/** The endpoints, a page at a time (16 at most per mode), each with its most recent attempts. */
export function webhooksPage(frame: Frame, view: ListView<EndpointDeliveries & { id: string }>, notice?: Notice): string {
  const { urls, principal } = frame;
  const add = canWrite(principal)
    ? `<div class="actions-row"><a class="button primary" href="${escapeHtml(`${urls.dashboard}/webhooks/new`)}">Add an endpoint</a></div>`
    : '';
  const body =
    view.items.length === 0
      ? `<p class="note">${view.request.startingAfter || view.request.endingBefore ? 'Nothing more in this direction.' : `No webhook endpoints in ${principal.mode} mode yet.`}</p>`
      : table(
          endpointTable(urls),
          view.items,
          `Webhook endpoints of ${principal.mode} mode, newest first, each with its ${ENDPOINT_ATTEMPTS.list} most recent delivery attempts; failed attempts are marked Failed.`,
        );
  return signedInPage(
    frame,
    'Webhooks',
    `${noticeBox(notice)}
<p class="note">Each endpoint receives the events its patterns match, signed with its own secret (Standard Webhooks).</p>
${add}
${body}
${pager('Webhook endpoints: pages', view, (cursor) => pageUrl(urls, '/webhooks', cursor))}`,
    '/webhooks',
  );
}

/** The fields of an endpoint's create and edit forms, named as the API's body (errors land beside them). */
function endpointFields(form: ReturnType<typeof formOf>): string {
  return `${form.field({ name: 'url', label: 'Endpoint URL', type: 'url', hint: 'Where deliveries are POSTed; https on a public address in AWS.', attributes: 'maxlength="2048" autocomplete="off" spellcheck="false"' })}
${form.field({ name: 'enabled_events', label: 'Events to send', type: 'textarea', hint: 'One pattern a line: an event type, a prefix ending in .* (transactions.refund.*), or * for every event.', attributes: 'rows="4" spellcheck="false"' })}
<details class="types"><summary>Event types</summary><ul class="plain">${EVENT_TYPES.map((type) => `<li><code>${eventType(type)}</code></li>`).join('')}</ul></details>
${form.field({ name: 'description', label: 'Description', hint: 'For you; empty for none.', attributes: 'maxlength="500"' })}`;
}

/** The form adding an endpoint (`POST /v1/webhook_endpoints`); its secret is shown once, on the new endpoint's page. */
export function newEndpointPage(frame: Frame, state?: FormState): string {
  const { urls } = frame;
  const form = formOf('create-endpoint', state ?? { values: { enabled_events: '*' } });
  const fields = endpointFields(form);
  return signedInPage(
    frame,
    'Add a webhook endpoint',
    `${form.alert()}
${postForm({ action: `${urls.dashboard}/webhooks`, frame, fields, button: 'Add endpoint', primary: true })}`,
    '/webhooks',
  );
}

/** The forms of an endpoint's page; the one that was submitted shows its problem. */
export interface EndpointForms {
  edit?: FormState;
  status?: FormState;
  roll?: FormState;
  remove?: FormState;
  resend?: FormState;
}

/** How long the secret before a roll keeps signing: the API's choices, in words. */
const OVERLAPS: [string, string][] = [
  ['0', 'Not at all: only the new secret signs from now on'],
  ['3600', 'For an hour'],
  [String(ROLL_OVERLAP.defaultSeconds), 'For a day'],
  [String(ROLL_OVERLAP.maxSeconds), 'For 7 days'],
];

/**
 * An endpoint's page: its settings, the secret shown once after a creation or a roll (`notice`),
 * its forms with `webhook:write`, and its most recent attempts with `event:read`, a failed one's
 * event resent to this endpoint with `event:resend`.
 */
export function endpointPage(frame: Frame, view: EndpointDeliveries, forms: EndpointForms = {}, notice?: Notice): string {
  const { urls, principal } = frame;
  const { endpoint, attempts } = view;
  const page = webhookPagePath(urls, endpoint.id);
  const enabled = endpoint.status === 'enabled';

  const status = formOf('endpoint-status', forms.status);
  const toggle = enabled
    ? postForm({
        action: page,
        frame,
        kind: 'act',
        fields: `<input type="hidden" name="status" value="disabled">\n${status.confirm('Stop sending events to this endpoint, including deliveries already queued')}`,
        button: 'Disable',
      })
    : postForm({
        action: page,
        frame,
        kind: 'act',
        fields: '<input type="hidden" name="status" value="enabled"><p class="note">Enabled again, it receives the events that happen from then on.</p>',
        button: 'Enable',
      });

  const edit = formOf('edit-endpoint', forms.edit ?? { values: { url: endpoint.url, enabled_events: endpoint.events.join('\n'), description: endpoint.description ?? '' } });
  const editFields = endpointFields(edit);
  const roll = formOf('roll-secret', forms.roll ?? { values: { expires_in_seconds: String(ROLL_OVERLAP.defaultSeconds) } });
  const rollOverlap = roll.field({ name: 'expires_in_seconds', label: 'Keep the current secret signing too', type: 'select', options: OVERLAPS });
  const remove = formOf('delete-endpoint', forms.remove);
  const removeConfirm = remove.confirm('Delete this endpoint for good: it receives nothing more, and deliveries already queued to it stop');
  const resend = formOf('resend', forms.resend);

  const writeForms = canWrite(principal)
    ? [
        titledSection('endpoint-status-heading', enabled ? 'Disable' : 'Enable', `${status.alert()}\n${toggle}`),
        titledSection('edit', 'Edit', `${edit.alert()}\n${postForm({ action: page, frame, fields: editFields, button: 'Save changes', primary: true })}`),
        titledSection(
          'roll',
          'Roll the signing secret',
          `<p class="note">A new secret, shown once. Until the current one expires, every delivery carries both signatures, so a receiver verifying with either accepts it.</p>
${roll.alert()}
${postForm({ action: `${page}/roll-secret`, frame, fields: rollOverlap, button: 'Roll secret' })}`,
        ),
        titledSection('delete', 'Delete', `${remove.alert()}\n${postForm({ action: `${page}/delete`, frame, kind: 'act', fields: removeConfirm, button: 'Delete endpoint' })}`),
      ].join('\n')
    : '';

  // A failed attempt's event goes again to this endpoint only (`subscription_id`); a disabled endpoint takes none (422).
  const resendCell = {
    label: 'Resend',
    cell: (attempt: DeliveryAttempt) =>
      attempt.succeeded
        ? ''
        : postForm({
            action: `${eventPagePath(urls, attempt.eventId)}/resend`,
            frame,
            kind: 'inline',
            fields: `<input type="hidden" name="subscription_id" value="${escapeHtml(endpoint.id)}">`,
            button: 'Resend',
          }),
  };
  const attemptsBody = !attempts.allowed
    ? missingScope(attempts.scope)
    : attempts.items.length === 0
      ? '<p class="note">No delivery attempts to this endpoint yet.</p>'
      : table(
          attemptTable(urls, enabled && canResend(principal) ? resendCell : undefined),
          attempts.items,
          `The ${ENDPOINT_ATTEMPTS.page} most recent delivery attempts to this endpoint, newest first; failed attempts are marked Failed${enabled && canResend(principal) ? ' and their event can be sent again' : ''}.`,
        );

  return signedInPage(
    frame,
    `Webhook endpoint ${endpoint.id}`,
    `${noticeBox(notice)}
<dl>
<dt>Status</dt><dd>${badge(endpoint.status, enabled ? 'good' : '')}</dd>
<dt>URL</dt><dd class="url" data-field="url">${escapeHtml(endpoint.url)}</dd>
<dt>Events</dt><dd data-field="enabled_events">${patterns(endpoint)}</dd>
<dt>Description</dt><dd data-field="description">${textOrDash(endpoint.description)}</dd>
<dt>Created</dt><dd>${time(endpoint.createdAt)}</dd>
<dt>Secret</dt><dd>${
      endpoint.previousSecretExpiresAt && Date.parse(endpoint.previousSecretExpiresAt) > Date.now()
        ? `Rolled: the secret before it signs too until ${time(endpoint.previousSecretExpiresAt)}.`
        : 'Shown once, when the endpoint was added or its secret rolled.'
    }</dd>
</dl>
<section aria-labelledby="deliveries">
<h2 id="deliveries">Recent deliveries</h2>
${resend.alert()}
${attemptsBody}
</section>
${writeForms}${copyScriptFor(notice, urls.dashboard)}`,
    '/webhooks',
  );
}

/**
 * An event's page: its envelope exactly as webhooks deliver it, every delivery attempt (newest
 * first, failures marked), and with `event:resend` a resend to every endpoint it matches now.
 */
export function eventPage(frame: Frame, view: EventView, resendForm?: FormState, notice?: Notice): string {
  const { urls, principal } = frame;
  const { envelope, attempts } = view;
  const resend = formOf('resend', resendForm);
  const resendSection = canResend(principal)
    ? titledSection(
        'resend-heading',
        'Resend',
        `${resend.alert()}
${postForm({
  action: `${eventPagePath(urls, envelope.id)}/resend`,
  frame,
  kind: 'act',
  fields: '<p class="note">Sends the event again, with the same <code>webhook-id</code>, to every enabled endpoint whose patterns match it now (and the URL of its object, if it has one).</p>',
  button: 'Resend event',
})}`,
      )
    : '';
  // The payload's box scrolls: it takes the keyboard's focus (a region, named) so that it can be scrolled without a mouse.
  return signedInPage(
    frame,
    `Event ${envelope.id}`,
    `${noticeBox(notice)}
<dl>
<dt>Type</dt><dd>${eventType(envelope.type)}</dd>
<dt>Triggered</dt><dd>${time(envelope.triggered_at)}</dd>
</dl>
<section aria-labelledby="payload">
<h2 id="payload">Payload</h2>
<pre class="payload" tabindex="0" role="region" aria-label="The event's payload, as webhooks deliver it">${escapeHtml(JSON.stringify(envelope, null, 2))}</pre>
</section>
<section aria-labelledby="attempts">
<h2 id="attempts">Delivery attempts</h2>
${
  attempts.length === 0
    ? '<p class="note">No delivery attempts yet.</p>'
    : table(attemptTable(urls), attempts, 'Every delivery attempt of this event, newest first; failed attempts are marked Failed.')
}
</section>
${resendSection}`,
    '/events',
  );
}
