import { routes } from '../../shared/api';
import { unmatchedRoute } from '../../shared/http/unmatched-route';

/** API Gateway's `$default` route: every request no route takes (405 with `Allow`, or 404). */
export const handler = unmatchedRoute(routes);
