import { dashboardHome } from '../../shared/api/pages';
import {
  chargebackPorts,
  dashboardReadPorts,
  dashboardSessionServices,
  deliveryPorts,
  ledgerPorts,
  linkPorts,
  paymentPorts,
  refundPorts,
} from '../../shared/services/dashboard';
import { dashboardPage } from '../../shared/dashboard/http';
import { overviewPage } from '../../shared/dashboard/pages';
import { overview, paidVolume } from '../../shared/use-cases/dashboard';

const sessions = dashboardSessionServices();
const sections = { ...linkPorts(), ...paymentPorts(), ...refundPorts(), ...chargebackPorts(), ...deliveryPorts(), ...ledgerPorts() };
const chart = dashboardReadPorts();

/** GET /dashboard: the sign-in form, or once signed in the paid-volume chart, the balance and the overview of every section. */
export const handler = dashboardPage(
  dashboardHome,
  sessions,
  async (request) => {
    const [summary, volume] = await Promise.all([overview(sections, request.principal), paidVolume(chart, request.principal)]);
    return { status: 200, html: overviewPage(request, summary, volume, new Date()) };
  },
  { signedOutStatus: 200 },
);
