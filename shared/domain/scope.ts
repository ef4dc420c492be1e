import type { Principal } from '../auth/principal';
import { NotFoundError } from '../errors';

/** Anything stored that belongs to one organization and one mode. */
export interface Owned {
  orgId: string;
  mode: string;
}

/** Whose an object is: an organization in one mode (a caller, or a report built for one). */
export type Owner = Pick<Principal, 'orgId' | 'mode'>;

/**
 * The single ownership rule: an object of another organization or the other mode does not
 * exist for this caller. Unknown, malformed, foreign and other-mode ids share one 404 body.
 */
export function requireOwned<T extends Owned>(item: T | undefined, principal: Owner): T {
  if (!item || item.orgId !== principal.orgId || item.mode !== principal.mode) throw new NotFoundError();
  return item;
}

export function isOwned(item: Owned | undefined, principal: Owner): boolean {
  return !!item && item.orgId === principal.orgId && item.mode === principal.mode;
}
