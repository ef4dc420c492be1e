import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { routes } from '../../../shared/api';
import { rateLimitEntity } from '../../../shared/db/entities';
import * as keys from '../../../shared/db/keys';
import { LIMITS } from '../../../shared/limits';
import { seriousAxeViolations } from '../../support/axe';
import { browserAvailable, launchBrowser } from '../../support/browser';
import { createPerson, dashboardBrowser, linkIn, mailTo, seedAccount, type Person, type SeededAccount } from '../../support/dashboard';
import { client } from '../../support/http';
import { continueToAcquirer, liveLink, payOnHostedPage, startLiveStack } from '../../support/live';
import { importDocument, paymentRecord, settlementInput } from '../../support/settlements';
import type { Api, Merchant, TestStack } from '../../support/stack';

/**
 * Pages everyone can use (WCAG 2.2 A and AA): axe-core, in Chromium, over every page the route
 * declarations have (shared/api: the checkout's, the dashboard's, the docs'), in each of its
 * states, at 1280 and 390 px, finds no serious or critical violation of its rules (WCAG's and
 * its best practices; `test/support/axe.ts`), and the page reflows
 * (nothing wider than it). A page route without a visit below fails the test, so a new page
 * comes with its check.
 */
const WIDTHS = [1280, 390];
const HEIGHT = 900;

/** Who looks at a page: a customer or a developer (no session), or the merchant's owner signed in to the dashboard, in test or in live mode. */
type Viewer = 'public' | 'test' | 'live';

/** What a person does on a page (a navigation, a click), then the route whose page it shows and in which state. */
interface Step {
  route: string;
  state: string;
  act(page: Page): Promise<unknown>;
}

/** One viewer's steps on one page, axe run after each. */
interface Journey {
  viewer: Viewer;
  steps: Step[];
}

/** Page routes that answer no page of their own (besides the dashboard's forms, each a 303 to a page visited here, where its refusal shows). */
const NOT_PAGES: Record<string, string> = {
  'GET /docs/assets/{file}': "Swagger UI's files",
  'GET /dashboard/settlements/{id}/records.csv': 'a CSV file',
  'GET /dashboard/assets/passkeys.js': "the passkey pages' script",
  'GET /dashboard/assets/copy.js': "the copy buttons' script",
  'POST /dashboard/sign-in/passkey/options': 'JSON for the passkey script',
};

const describeBrowser = browserAvailable() ? describe : describe.skip;

describeBrowser('pages everyone can use', () => {
  let stack: TestStack;
  let merchant: Merchant;
  let testMode: Api;
  let live: Api;
  let seeded: SeededAccount;
  let owner: Person;
  /** A person whose password leads to the Code page (two-factor on, as the person's item says). */
  let withTwoFactor: Person;
  let settlementId: string;
  let webhookId: string;
  let browser: Browser;

  beforeAll(async () => {
    ({ stack, merchant, live } = await startLiveStack());
    testMode = client(stack.baseUrl, merchant.test);
    [seeded, owner, withTwoFactor] = await Promise.all([seedAccount(stack, merchant), createPerson(stack, merchant.orgId, 'owner'), createPerson(stack, merchant.orgId, 'developer')]);
    await stack.db.send(
      new UpdateCommand({ TableName: stack.tableName, Key: keys.user(withTwoFactor.userId), UpdateExpression: 'SET twoFactorEnabledAt = :at', ExpressionAttributeValues: { ':at': new Date().toISOString() } }),
    );
    webhookId = (await testMode.post('/v1/webhook_endpoints', { url: 'https://hooks.example/orders', enabled_events: ['transactions.payment.*'] })).body.id;
    const settlement = settlementInput(merchant.orgId, { records: [paymentRecord(merchant.orgId, merchant.acceptorId)] });
    await importDocument(stack, [settlement]);
    settlementId = (await live.get('/v1/settlements')).body.data[0].id;
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  const url = (path: string) => `${stack.baseUrl}${path}`;
  const goto = (path: string) => (page: Page) => page.goto(url(path));
  const link = async (api: Api, extra: Record<string, unknown> = {}) =>
    (await api.post('/v1/payment_links', { amount: { value: '25.00', currency: 'EUR' }, acceptor_id: merchant.acceptorId, description: 'Concert ticket', ...extra })).body as {
      id: string;
      links: { checkout: { href: string } };
    };

  /** A link whose checkout has opened as many new payments as it may this window and the next: the next new customer gets the 429 page. */
  async function crowdedLink(): Promise<string> {
    const { id } = await link(testMode);
    const { perLink, windowSeconds } = LIMITS.checkoutOpenings;
    const window = Math.floor(Date.now() / 1000 / windowSeconds);
    for (const each of [window, window + 1]) {
      await stack.db.send(new PutCommand({ TableName: stack.tableName, Item: { ...rateLimitEntity.key({ subject: `checkout#${id}`, window: each }), count: perLink } }));
    }
    return id;
  }

  /** The link of the newest email `address` received (an invitation's, a reset's), read from the local mailbox. */
  const mailedLink = async (address: string) => url(linkIn((await mailTo(stack, address))[0]));
  /** A fresh invitation of the owner's team, sent to a new address; its link. */
  async function invitationLink(): Promise<string> {
    const invitee = `invitee-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
    const owners = dashboardBrowser(stack);
    await owners.submit('/dashboard/team/invitations', await owners.sessionOf(owner), { email: invitee, role: 'viewer' });
    return mailedLink(invitee);
  }
  /** Fills the field labelled `label` (a value, or one made when the step runs), presses `button`, and waits for `shown`. */
  const submitWith = (label: string, value: string | (() => string), button: string, shown: string) => async (page: Page) => {
    await page.getByLabel(label, { exact: true }).fill(typeof value === 'string' ? value : value());
    await page.getByRole('button', { name: button }).click();
    return page.locator(shown).first().waitFor();
  };

  const step = (route: string, state: string, act: Step['act']): Step => ({ route, state, act });
  const visit = (viewer: Viewer, route: string, state: string, act: Step['act']): Journey => ({ viewer, steps: [step(route, state, act)] });
  const CHECKOUT = 'GET /checkout/{id}';
  const SUBMIT = 'POST /checkout/{id}';
  const THANK_YOU = 'GET /checkout/{id}/thank-you';
  const pay = (page: Page) => page.getByRole('button', { name: 'Pay', exact: true }).click();

  /** Every state of every page: the checkout's (test and live), the docs', the dashboard's. */
  const journeys = (): Journey[] => [
    {
      viewer: 'public',
      steps: [
        step(CHECKOUT, 'test, open, collecting every field', async (page) => page.goto((await link(testMode, { collect_email: true, collect_address: true, collect_phone: true })).links.checkout.href)),
        step(SUBMIT, 'test, the fields refused (a browser that does not validate)', async (page) => {
          await page.locator('form').evaluate((form) => ((form as HTMLFormElement).noValidate = true));
          await page.getByLabel('Email address').fill('ann@@example');
          await pay(page);
          return page.locator('[aria-invalid="true"]').first().waitFor();
        }),
        step(THANK_YOU, 'test, paid', async (page) => {
          await page.getByLabel('Email address').fill('ann@example.com');
          await page.getByLabel('Phone number').fill('+49 30 1234');
          await page.getByLabel('Billing address').fill('Unter den Linden 1');
          await pay(page);
          return page.getByRole('heading', { name: 'Thank you for your payment' }).waitFor();
        }),
      ],
    },
    {
      viewer: 'public',
      steps: [
        step(CHECKOUT, 'test, open', async (page) => page.goto((await link(testMode)).links.checkout.href)),
        step(SUBMIT, 'test, failed', async (page) => {
          await page.getByRole('button', { name: 'Fail payment' }).click();
          return page.getByRole('heading', { name: 'Payment failed' }).waitFor();
        }),
      ],
    },
    {
      viewer: 'public',
      steps: [
        step(CHECKOUT, 'live, open', async (page) => page.goto((await liveLink(live, merchant.acceptorId)).links.checkout.href)),
        step(CHECKOUT, "live: the local Adyen's hosted page", async (page) => {
          await pay(page);
          return page.waitForURL((address) => address.href.startsWith(stack.acquirer.url));
        }),
        step(THANK_YOU, 'live, paid', async (page) => {
          await payOnHostedPage(page, 'Ada Lovelace');
          return page.getByRole('heading', { name: 'Thank you for your payment' }).waitFor();
        }),
      ],
    },
    visit('public', THANK_YOU, 'live, declined', async (page) => {
      await continueToAcquirer(page, stack, (await liveLink(live, merchant.acceptorId)).links.checkout.href);
      await payOnHostedPage(page, 'DECLINED');
      return page.getByRole('heading', { name: 'Payment declined' }).waitFor();
    }),
    visit('public', THANK_YOU, 'live, processing (the outcome not known after the wait)', async (page) => {
      const open = await liveLink(live, merchant.acceptorId);
      await continueToAcquirer(page, stack, open.links.checkout.href);
      const paymentId = (await live.get(`/v1/payment_links/${open.id}/payments`)).body.data[0].id;
      return page.goto(url(`/checkout/${open.id}/thank-you?payment_id=${paymentId}`));
    }),
    visit('public', CHECKOUT, '409 inactive', async (page) => {
      const inactive = await link(testMode);
      await testMode.post(`/v1/payment_links/${inactive.id}`, { status: 'inactive' });
      return page.goto(inactive.links.checkout.href);
    }),
    visit('public', CHECKOUT, '409 expired', async (page) => page.goto((await link(testMode, { expires_at: '2020-01-01T00:00:00.000Z' })).links.checkout.href)),
    visit('public', CHECKOUT, '409 limit reached', async (page) => {
      const full = await link(testMode, { payments_limit: 2 });
      await testMode.post(`/v1/test_helpers/payment_links/${full.id}/checkout`, { outcome: 'paid' });
      await testMode.post(`/v1/payment_links/${full.id}`, { payments_limit: 1 });
      return page.goto(full.links.checkout.href);
    }),
    visit('public', CHECKOUT, '429', async (page) => page.goto(url(`/checkout/${await crowdedLink()}`))),
    visit('public', CHECKOUT, '404', goto('/checkout/pl_01jd2x3y4z5a6b7c8d9e0f1g2h')),
    {
      viewer: 'public',
      steps: [
        step('GET /docs', 'rendered', async (page) => {
          await page.goto(url('/docs'));
          return page.getByText('/v1/payment_links', { exact: true }).first().waitFor();
        }),
        step('GET /docs', 'the Authorize dialog, authorized', async (page) => {
          await page.locator('.auth-wrapper .btn.authorize').click();
          await page.locator('.modal-ux input').fill(merchant.test);
          return page.locator('.modal-ux .btn.authorize').click();
        }),
        step('GET /docs', 'an operation tried out, another executed', async (page) => {
          await page.locator('.modal-ux button.btn-done').click();
          for (const [operation, execute] of [['createPaymentLink', false], ['listPaymentLinks', true]] as const) {
            const block = page.locator(`#operations-Payment_links-${operation}`);
            await block.locator('.opblock-summary-control').click();
            await block.getByRole('button', { name: 'Try it out' }).click();
            if (execute) await block.getByRole('button', { name: 'Execute' }).click();
          }
          return page.locator('.live-responses-table').waitFor();
        }),
      ],
    },
    visit('public', 'GET /docs/errors', 'the error reference', goto('/docs/errors')),
    {
      viewer: 'public',
      steps: [
        step('GET /dashboard', 'signed out: the sign-in form', goto('/dashboard')),
        step('POST /dashboard/session', 'a wrong password refused', async (page) => {
          await page.getByLabel('Email', { exact: true }).fill(owner.email);
          await page.getByLabel('Password').fill('surely not the password');
          await page.getByRole('button', { name: 'Sign in' }).click();
          return page.getByRole('alert').waitFor();
        }),
      ],
    },
    {
      viewer: 'public',
      steps: [
        step('GET /dashboard/forgot-password', 'the form', goto('/dashboard/forgot-password')),
        step('POST /dashboard/forgot-password', 'no email: refused beside the field', submitWith('Email', '', 'Send the link', '.field-error')),
        step('GET /dashboard/forgot-password', 'asked: the one answer', submitWith('Email', owner.email, 'Send the link', '[role="status"]')),
      ],
    },
    {
      viewer: 'public',
      steps: [
        step('GET /dashboard/password-reset/{token}', 'the new password form', async (page) => {
          // A person of their own: a reset ends every session, and the owner's sign the other viewers in.
          const person = await createPerson(stack, merchant.orgId, 'viewer');
          await page.goto(url('/dashboard/forgot-password'));
          await submitWith('Email', person.email, 'Send the link', '[role="status"]')(page);
          return page.goto(await mailedLink(person.email));
        }),
        step('POST /dashboard/password-reset/{token}', 'a short password refused beside the field', submitWith('New password', 'short', 'Set the new password', '.field-error')),
        step('GET /dashboard/forgot-password', 'the password set', submitWith('New password', 'a long enough new password', 'Set the new password', '[role="status"]')),
      ],
    },
    visit('public', 'GET /dashboard/password-reset/{token}', '404: a link that no longer works', goto(`/dashboard/password-reset/usr_${'0'.repeat(26)}.${'A'.repeat(43)}`)),
    {
      viewer: 'public',
      steps: [
        step('GET /dashboard/invitations/{token}', 'the form to join', async (page) => page.goto(await invitationLink())),
        step('POST /dashboard/invitations/{token}', 'a short password refused beside the field', async (page) => {
          await page.getByLabel('Your name').fill('Ivy Invitee');
          return submitWith('Password', 'short', 'Join the team', '.field-error')(page);
        }),
      ],
    },
    visit('public', 'GET /dashboard/invitations/{token}', '404: a link that no longer works', goto(`/dashboard/invitations/inv_${'0'.repeat(26)}.${'A'.repeat(43)}`)),
    {
      viewer: 'test',
      steps: [
        step('GET /dashboard/team', "the members and invitations, the owner's forms", goto('/dashboard/team')),
        step('GET /dashboard/team', 'an invitation sent', submitWith('Email', () => `seen-${Date.now()}@example.com`, 'Invite', '[role="status"]')),
        step('GET /dashboard/team', 'an invitation refused beside its field', submitWith('Email', owner.email, 'Invite', '.field-error')),
      ],
    },
    {
      viewer: 'public',
      steps: [
        step('GET /dashboard/sign-in/passkey', 'signing in with a passkey', goto('/dashboard/sign-in/passkey')),
        step('POST /dashboard/sign-in/passkey', 'an answer that is no credential refused', async (page) => {
          await page.evaluate(() => {
            const form = document.querySelector<HTMLFormElement>('form[data-passkey]')!;
            (form.elements.namedItem('credential') as HTMLInputElement).value = 'not a credential';
            form.submit();
          });
          return page.getByText('The passkey did not answer: try again').waitFor();
        }),
      ],
    },
    {
      viewer: 'public',
      steps: [
        step('GET /dashboard/sign-in/second-factor', 'the Code form', async (page) => {
          await page.goto(url('/dashboard'));
          await page.getByLabel('Email', { exact: true }).fill(withTwoFactor.email);
          await page.getByLabel('Password').fill(withTwoFactor.password);
          await page.getByRole('button', { name: 'Sign in' }).click();
          return page.getByRole('heading', { name: 'Two-factor authentication' }).waitFor();
        }),
        step('POST /dashboard/sign-in/second-factor', 'a wrong code refused', async (page) => {
          await page.getByLabel('Code', { exact: true }).fill('000000');
          await page.getByRole('button', { name: 'Continue' }).click();
          return page.getByText('The code is not valid').waitFor();
        }),
      ],
    },
    visit('test', 'GET /dashboard/security', 'the password form and the sessions', goto('/dashboard/security')),
    visit('test', 'GET /dashboard/api-keys', 'the keys and the create form', goto('/dashboard/api-keys')),
    visit('live', 'GET /dashboard/api-keys', 'live mode', goto('/dashboard/api-keys')),
    visit('test', 'GET /dashboard/audit', 'the trail', goto('/dashboard/audit')),
    {
      viewer: 'test',
      steps: [
        step('GET /dashboard/reports/{id}', 'a report asked for from the payments list', async (page) => {
          await page.goto(url('/dashboard/payments'));
          await page.getByRole('button', { name: 'Export CSV' }).click();
          return page.getByRole('heading', { name: /^Report rpt_/, level: 1 }).waitFor();
        }),
      ],
    },
    visit('test', 'GET /dashboard/audit', 'two filters: 400 above the form', goto('/dashboard/audit?action=api_key.created&target_id=pl_01jd2x3y4z5a6b7c8d9e0f1g2h')),
    visit('test', 'GET /dashboard', 'the overview', goto('/dashboard')),
    visit('test', 'GET /dashboard/search', 'nothing found', goto('/dashboard/search?id=pl_01jd2x3y4z5a6b7c8d9e0f1g2h')),
    visit('test', 'GET /dashboard/payment-links', 'a list', goto('/dashboard/payment-links')),
    {
      viewer: 'test',
      steps: [
        step('GET /dashboard/payment-links/new', 'the form', goto('/dashboard/payment-links/new')),
        step('GET /dashboard/payment-links/new', 'a refusal beside its field', async (page) => {
          await page.getByLabel('Amount', { exact: true }).fill('0');
          await page.getByRole('button', { name: 'Create payment link' }).click();
          return page.locator('.field-error').waitFor();
        }),
      ],
    },
    visit('test', 'GET /dashboard/payment-links/{id}', 'a link, its payments and events', async (page) => page.goto(url(`/dashboard/payment-links/${seeded.linkId}`))),
    visit('test', 'GET /dashboard/payments', 'a list', goto('/dashboard/payments')),
    visit('test', 'GET /dashboard/payments/{id}', 'refundable', async (page) => page.goto(url(`/dashboard/payments/${seeded.paymentIds[1]}`))),
    visit('test', 'GET /dashboard/payments/{id}', '404', goto('/dashboard/payments/pay_01jd2x3y4z5a6b7c8d9e0f1g2h')),
    visit('test', 'GET /dashboard/refunds', 'a list', goto('/dashboard/refunds')),
    visit('test', 'GET /dashboard/refunds/{id}', 'on hold, cancelable', async (page) => page.goto(url(`/dashboard/refunds/${seeded.heldRefundId}`))),
    visit('test', 'GET /dashboard/chargebacks', 'a list', goto('/dashboard/chargebacks')),
    visit('test', 'GET /dashboard/chargebacks/{id}', 'open: its answers', async (page) => page.goto(url(`/dashboard/chargebacks/${seeded.openChargebacks[0].id}`))),
    visit('test', 'GET /dashboard/chargebacks/{id}', 'accepted', async (page) => page.goto(url(`/dashboard/chargebacks/${seeded.acceptedChargebackId}`))),
    visit('test', 'GET /dashboard/events', 'a list', goto('/dashboard/events')),
    visit('test', 'GET /dashboard/events/{id}', 'its payload and attempts', async (page) => page.goto(url(`/dashboard/events/${seeded.eventId}`))),
    visit('test', 'GET /dashboard/webhooks', 'a list', goto('/dashboard/webhooks')),
    visit('test', 'GET /dashboard/webhooks/new', 'the form', goto('/dashboard/webhooks/new')),
    visit('test', 'GET /dashboard/webhooks/{id}', 'an endpoint', async (page) => page.goto(url(`/dashboard/webhooks/${webhookId}`))),
    visit('test', 'GET /dashboard/balance-transactions', 'a list', goto('/dashboard/balance-transactions')),
    visit('test', 'GET /dashboard/settlements', 'test mode: where settlements are', goto('/dashboard/settlements')),
    visit('live', 'GET /dashboard/settlements', 'live: a list', goto('/dashboard/settlements')),
    visit('live', 'GET /dashboard/settlements/{id}', 'a settlement and its records', async (page) => page.goto(url(`/dashboard/settlements/${settlementId}`))),
  ];

  /** A browser context per viewer; the dashboard's signed in as the owner, switched to live for `live`. */
  async function viewers(): Promise<Record<Viewer, BrowserContext>> {
    const contexts = {} as Record<Viewer, BrowserContext>;
    for (const viewer of ['public', 'test', 'live'] as const) {
      contexts[viewer] = await browser.newContext({ viewport: { width: WIDTHS[0], height: HEIGHT } });
      if (viewer === 'public') continue;
      const page = await contexts[viewer].newPage();
      await page.goto(url('/dashboard'));
      await page.getByLabel('Email', { exact: true }).fill(owner.email);
      await page.getByLabel('Password').fill(owner.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
      if (viewer === 'live') {
        await page.getByRole('button', { name: 'Switch to live mode' }).click();
        await page.getByText('Live mode', { exact: true }).waitFor();
      }
      await page.close();
    }
    return contexts;
  }

  /** axe-core's serious and critical violations, each in a line: the rule, how many nodes, the first two. */
  const violations = async (page: Page) =>
    (await seriousAxeViolations(page)).map(
      (violation) => `${violation.id} (${violation.impact}, ${violation.nodes.length}): ${violation.nodes.slice(0, 2).map((node) => node.target.join(' ')).join(' | ')}`,
    );

  /**
   * What reflow (WCAG 1.4.10, which axe-core cannot check) finds: the page scrolling sideways, or
   * an element past the right edge of its page's content (`main`'s, without its padding), where
   * it is cut off or crowds the edge.
   */
  function overflows(page: Page): Promise<string[]> {
    return page.evaluate(() => {
      const root = document.documentElement;
      const sideways = root.scrollWidth > root.clientWidth ? [`the page scrolls sideways by ${root.scrollWidth - root.clientWidth} px`] : [];
      const main = document.querySelector('main');
      if (!main) return sideways;
      const edge = main.getBoundingClientRect().right - parseFloat(getComputedStyle(main).paddingRight);
      const past = Array.from(main.querySelectorAll('*'))
        .filter((element) => !element.closest('thead, .visually-hidden') && element.getBoundingClientRect().right > edge + 0.5)
        .map((element) => `past the edge: ${element.outerHTML.slice(0, 100)}`);
      return [...sideways, ...past.slice(0, 3)];
    });
  }

  test('axe-core finds no serious or critical violation (WCAG 2.2 A and AA, best practices), and nothing is wider than its page, on any page of the checkout, the dashboard and the docs, in every state, at 1280 and 390 px', async () => {
    // Prepare
    const isForm = (route: (typeof routes)[number]) => route.kind === 'page' && route.method === 'POST' && route.auth === 'dashboard session';
    const declared = routes.filter((route) => route.kind === 'page' && !isForm(route)).map((route) => `${route.method} ${route.path}`);
    const planned = journeys();
    const visited = new Set(planned.flatMap((journey) => journey.steps.map((each) => each.route)));

    // Assess: every page route is visited (a form is a 303 to a page visited here, where its refusal shows).
    expect(declared.filter((route) => !visited.has(route) && !NOT_PAGES[route])).toEqual([]);
    expect([...visited, ...Object.keys(NOT_PAGES)].filter((route) => !declared.includes(route))).toEqual([]);

    // Act: each state reached once, then checked at each width (the pages are the server's HTML
    // and CSS, so a resized page lays out as one loaded at that width).
    const found: string[] = [];
    const contexts = await viewers();
    for (const journey of planned) {
      const page = await contexts[journey.viewer].newPage();
      for (const { route, state, act } of journey.steps) {
        await page.setViewportSize({ width: WIDTHS[0], height: HEIGHT });
        await act(page);
        for (const width of WIDTHS) {
          await page.setViewportSize({ width, height: HEIGHT });
          for (const violation of [...(await violations(page)), ...(await overflows(page))]) found.push(`${route}, ${state}, ${width} px: ${violation}`);
        }
      }
      await page.close();
    }
    for (const context of Object.values(contexts)) await context.close();

    // Assess
    expect(found).toEqual([]);
  }, 600_000);
});
