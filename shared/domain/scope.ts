import type { Principal } from '../auth/principal';
import { NotFoundError } from '../errors';

/** Anything stored that belongs to one organization and one mode. */
export interface Owned {
  orgId: string;
  mode: string;
}

/**
 * The single ownership rule: an object of another organization or the other mode does not
 * exist for this caller. Unknown, malformed, foreign and other-mode ids share one 404 body.
 */
export function requireOwned<T extends Owned>(item: T | undefined, principal: Principal): T {
  if (!item || item.orgId !== principal.orgId || item.mode !== principal.mode) throw new NotFoundError();
  return item;
}

export function isOwned(item: Owned | undefined, principal: Principal): boolean {
  return !!item && item.orgId === principal.orgId && item.mode === principal.mode;
}
