import { definePage } from './operation';

/** The customer's checkout: public, keyed by the link id and the client_key cookie. */
export const checkoutPages = [
  definePage({ method: 'GET', path: '/checkout/{id}', handler: 'checkout-page', table: 'write', auth: 'public' }),
  definePage({ method: 'POST', path: '/checkout/{id}', handler: 'checkout-submit', table: 'write', auth: 'public' }),
  definePage({ method: 'GET', path: '/checkout/{id}/thank-you', handler: 'checkout-thank-you', table: 'read', auth: 'public' }),
];

/** The merchant dashboard: a session cookie whose API key is re-checked on every page. */
export const dashboardPages = [
  definePage({ method: 'GET', path: '/dashboard', handler: 'dashboard', table: 'read', auth: 'dashboard session' }),
  definePage({ method: 'POST', path: '/dashboard/session', handler: 'dashboard-sign-in', table: 'write', auth: 'public' }),
  definePage({ method: 'POST', path: '/dashboard/sign-out', handler: 'dashboard-sign-out', table: 'write', auth: 'dashboard session' }),
  definePage({ method: 'GET', path: '/dashboard/refunds/{id}', handler: 'dashboard-refund', table: 'read', auth: 'dashboard session' }),
];
