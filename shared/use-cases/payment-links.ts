import type { Principal } from '../auth/principal';
import type { PublicUrls } from '../config';
import type { AcceptorLookup } from '../db/directory-lookups';
import type { PaymentLinkRepository } from '../db/payment-link-repository';
import type { PaymentRepository } from '../db/payment-repository';
import {
  PAYMENT_LINK_EVENT,
  linkEvent,
  newPaymentLink,
  paymentLinkResource,
  updatedPaymentLink,
  StaleLinkError,
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

/**
 * Updates a link over POST (partial).
 * 1. Read the link (404 unless the caller's).
 * 2. Apply the update rules (empty body, expired status, limit below paid count: 422).
 * 3. Write it at the version read, with `properties.changed`; a concurrent change (a payment,
 *    another update) makes it start over from the current link, so no rule is checked on stale data.
 */
export async function updatePaymentLink(deps: PaymentLinkDeps, principal: Principal, id: string, body: UpdatePaymentLinkBody) {
  let current = await getPaymentLink(deps, principal, id);
  for (;;) {
    const next = updatedPaymentLink(current, body);
    try {
      const saved = await deps.links.save(next, current.version, [linkEvent(deps.urls, PAYMENT_LINK_EVENT.propertiesChanged, next)]);
      return paymentLinkResource(saved, deps.urls);
    } catch (error) {
      if (!(error instanceof StaleLinkError) || !error.current) throw error;
      current = error.current;
    }
  }
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
