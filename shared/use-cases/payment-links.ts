import type { Principal } from '../auth/principal';
import type { PublicUrls } from '../config';
import type { AcceptorLookup } from '../db/directory-lookups';
import type { PaymentLinkRepository } from '../db/payment-link-repository';
import type { PaymentRepository } from '../db/payment-repository';
import type { OutboxEvent } from '../events';
import {
  PAYMENT_LINK_EVENT,
  leftClosed,
  linkEvent,
  newPaymentLink,
  paymentLinkResource,
  updatedPaymentLink,
  StaleLinkError,
  type PaymentLink,
  type VersionedLink,
  type CreatePaymentLinkBody,
  type PaymentLinkList,
  type UpdatePaymentLinkBody,
} from '../domain/payment-links';
import { requireOwned } from '../domain/scope';
import { BusinessRuleError } from '../errors';
import { isId, newId } from '../ids';
import { pageRequest, type PageRequest } from '../pagination';

export interface PaymentLinkDeps {
  links: PaymentLinkRepository;
  payments: PaymentRepository;
  directory: AcceptorLookup;
  urls: PublicUrls;
  now: () => Date;
}

/**
 * Creates a payment link.
 * 1. Resolve the acceptor: the body's (must belong to the caller's organization), else the
 *    key's bound acceptor; an organization-scoped key must name one (422 `acceptor_id`).
 * 2. Build the link (positive amount, upper-case currency).
 * 3. Write it with `transactions.payment_link.created` in one transaction.
 */
export async function createPaymentLink(deps: PaymentLinkDeps, principal: Principal, body: CreatePaymentLinkBody) {
  const acceptorId = body.acceptor_id ?? principal.acceptorId;
  if (!acceptorId) throw new BusinessRuleError('acceptor_id is required for an organization-scoped key', 'acceptor_id');
  const link = newPaymentLink({
    id: newId('paymentLink'),
    orgId: principal.orgId,
    mode: principal.mode,
    acceptorId,
    body,
    now: deps.now(),
  });
  if (!isId('acceptor', acceptorId) || !(await deps.directory.getAcceptor(principal.orgId, acceptorId))) {
    throw new BusinessRuleError('acceptor_id does not name an acceptor of this organization', 'acceptor_id');
  }
  await deps.links.create(link, [linkEvent(deps.urls, PAYMENT_LINK_EVENT.created, link)]);
  return paymentLinkResource(link, deps.urls);
}

export async function getPaymentLink(deps: PaymentLinkDeps, principal: Principal, id: string): Promise<VersionedLink> {
  return requireOwned(await deps.links.get(id), principal);
}

/** A change of a link: what it becomes and the events that say so. */
export interface LinkChange {
  next: PaymentLink;
  events: OutboxEvent[];
}

/**
 * Writes the change `plan` makes of the link (undefined: none), starting over from the link as
 * it is now whenever another writer was first (a payment, another change, or this writer's own
 * closing of the shards: the repository's `save`), so that no rule is checked on stale data.
 * A writer that closed the shards and then changes nothing, or whose rule refuses the change,
 * reopens them. Returns the link as it is after: `changed` when this writer wrote it.
 */
export async function changeLink(deps: Pick<PaymentLinkDeps, 'links'>, read: VersionedLink, plan: (current: VersionedLink) => LinkChange | undefined) {
  let current = read;
  try {
    for (let change = plan(current); change; change = plan(current)) {
      try {
        return { link: await deps.links.save(change.next, current, change.events), changed: true };
      } catch (error) {
        if (!(error instanceof StaleLinkError) || !error.current) throw error;
        current = error.current;
      }
    }
  } catch (error) {
    await reopenShards(deps, current);
    throw error;
  }
  return { link: await reopenShards(deps, current), changed: false };
}

/** The shards a writer closed, reopened with the link unchanged; a writer that was first meanwhile decides them. */
async function reopenShards(deps: Pick<PaymentLinkDeps, 'links'>, link: VersionedLink): Promise<VersionedLink> {
  if (!leftClosed(link)) return link;
  try {
    return await deps.links.save(link, link, []);
  } catch (error) {
    if (error instanceof StaleLinkError && error.current) return error.current;
    throw error;
  }
}

/**
 * Updates a link over POST (partial).
 * 1. Read the link (404 unless the caller's).
 * 2. Apply the update rules (empty body, expired status, limit below paid count: 422).
 * 3. Write it at the version read, with `properties.changed` (`changeLink`: a concurrent change
 *    makes it start over from the current link; a change of the status, limit or expiry of a link
 *    whose payments count on shards closes them first and is checked on the final count).
 */
export async function updatePaymentLink(deps: PaymentLinkDeps, principal: Principal, id: string, body: UpdatePaymentLinkBody) {
  const read = await getPaymentLink(deps, principal, id);
  const { link } = await changeLink(deps, read, (current) => {
    const next = updatedPaymentLink(current, body);
    return { next, events: [linkEvent(deps.urls, PAYMENT_LINK_EVENT.propertiesChanged, next)] };
  });
  return paymentLinkResource(link, deps.urls);
}

export async function listPaymentLinks(
  deps: PaymentLinkDeps,
  principal: Principal,
  query: { limit?: string; starting_after?: string; status?: string },
): Promise<PaymentLinkList> {
  const page = pageRequest(query, (value) => isId('paymentLink', value));
  const result = await deps.links.list(principal, page, query.status);
  return { object: 'list', data: result.items.map((link) => paymentLinkResource(link, deps.urls)), has_more: result.hasMore };
}

export async function listLinkPayments(deps: PaymentLinkDeps, principal: Principal, id: string, page: PageRequest) {
  const link = await getPaymentLink(deps, principal, id);
  return deps.payments.listOfLink(link.id, page);
}
