import { SendEmailCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Email } from '../../../lib/email';
import { AWS_LIMITS } from '../../../shared/aws-limits';
import { EmailUnavailableError } from '../../../shared/domain/email';
import { createSesEmailSender } from '../../../shared/email/ses-sender';
import { createMailbox, startMailboxServer, type MailMessage } from '../../../bin/local/mailbox';
import { browserAvailable, launchBrowser } from '../../support/browser';
import { screenshotAtBothWidths, seriousAxeViolations } from '../../support/axe';
import { startMiniAws, type MiniAws } from '../../support/mini-aws';

/**
 * The local SES (bin/local/aws/ses.ts) behind the local AWS edge, over HTTP with the SDK's SES v2
 * client, as a deployed function calls it: IAM's check of ses:SendEmail on the sending identity
 * (the service's own Email construct grants it), SES's answers and quotas, and the mailbox.
 */
const SENDER = 'no-reply@example.com';
let mini: MiniAws;
let mailbox: { url: string; close(): Promise<void> };
const sesAs = (name: string) => new SESv2Client({ ...mini.edge, credentials: mini.credentialsOf(name) });
const simple = (from: string, to: string[], text = 'Hello', subject = 'Greetings') => ({
  FromEmailAddress: from,
  Destination: { ToAddresses: to },
  Content: { Simple: { Subject: { Data: subject }, Body: { Text: { Data: text }, Html: { Data: `<p>${text}</p>` } } } },
});
const mailJson = async (query = ''): Promise<MailMessage[]> => ((await (await fetch(`${mailbox.url}/messages${query}`)).json()) as { messages: MailMessage[] }).messages;

beforeAll(async () => {
  mini = await startMiniAws(['Sender', 'Bystander', 'Anywhere'], (stack, functions) => {
    new Email(stack, 'Email', { sender: SENDER }).connect(functions.Sender);
    // May send as any identity: what SES itself refuses is then SES's answer, not IAM's.
    functions.Anywhere.addToRolePolicy(new PolicyStatement({ actions: ['ses:SendEmail'], resources: ['*'] }));
  });
  mailbox = await startMailboxServer(mini.mailbox, 0);
}, 60_000);
afterAll(async () => {
  await mailbox?.close();
  await mini?.stop();
});

describe('local SES: SendEmail', () => {
  test('a function granted ses:SendEmail on the sender identity sends; the mailbox keeps the message in its shape', async () => {
    // Act
    const sent = await sesAs('Sender').send(new SendEmailCommand(simple(`Payments <${SENDER}>`, ['Ada@Example.com'], 'Your link: http://127.0.0.1:3000/x')));
    // Assess
    expect(sent.MessageId).toMatch(/^0100[0-9a-f]{12}-[0-9a-f-]{36}-000000$/);
    const [message] = await mailJson(`?to=${encodeURIComponent('ada@example.com')}`);
    expect(message).toEqual({
      id: sent.MessageId,
      from: `Payments <${SENDER}>`,
      to: ['Ada@Example.com'],
      subject: 'Greetings',
      text: 'Your link: http://127.0.0.1:3000/x',
      html: '<p>Your link: http://127.0.0.1:3000/x</p>',
      sent_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
    });
  });

  test('IAM: a function without the grant is refused as AccessDeniedException naming ses:SendEmail and the identity', async () => {
    // Act
    const refused = sesAs('Bystander').send(new SendEmailCommand(simple(SENDER, ['someone@example.com'])));
    // Assess
    await expect(refused).rejects.toMatchObject({ name: 'AccessDeniedException', $metadata: { httpStatusCode: 403 } });
    expect(mini.aws.recentDenials().at(-1)).toMatchObject({ action: 'ses:SendEmail', resource: `arn:aws:ses:local:000000000000:identity/${SENDER}` });
    expect(await mailJson('?to=someone@example.com')).toEqual([]);
  });

  test('IAM: the grant names the stage identity only; another sender is refused before SES looks at it', async () => {
    await expect(sesAs('Sender').send(new SendEmailCommand(simple('other@example.org', ['a@example.com'])))).rejects.toMatchObject({ name: 'AccessDeniedException' });
  });

  test('a sender no identity of the template covers is MessageRejected, in SES\'s words; nothing is kept', async () => {
    const before = (await mailJson()).length;
    await expect(sesAs('Anywhere').send(new SendEmailCommand(simple('other@example.org', ['a@example.com'])))).rejects.toMatchObject({
      name: 'MessageRejected',
      message: 'Email address is not verified. The following identities failed the check in region LOCAL: other@example.org',
      $metadata: { httpStatusCode: 400 },
    });
    expect(await mailJson()).toHaveLength(before);
  });

  test('quota: at most 50 recipients across To, CC and BCC', async () => {
    const recipients = (count: number) => Array.from({ length: count }, (_, index) => `r${index}@example.com`);
    const over = { ...simple(SENDER, recipients(40)), Destination: { ToAddresses: recipients(40), CcAddresses: ['cc1@example.com', 'cc2@example.com'], BccAddresses: recipients(9).map((r) => `b${r}`) } };
    await expect(sesAs('Sender').send(new SendEmailCommand(over))).rejects.toMatchObject({ name: 'MessageRejected', message: 'Recipient count exceeds 50.' });
    await expect(sesAs('Sender').send(new SendEmailCommand(simple(SENDER, recipients(AWS_LIMITS.ses.recipientsPerMessage))))).resolves.toMatchObject({ MessageId: expect.any(String) });
  });

  test('quota: a message over 40 MB after base64 encoding is MessageRejected', async () => {
    // 31 MB of text is about 41.5 MB once base64-encoded in lines; 29 MB is about 39 MB.
    const mb = 1024 * 1024;
    await expect(sesAs('Sender').send(new SendEmailCommand(simple(SENDER, ['big@example.com'], 'x'.repeat(31 * mb))))).rejects.toMatchObject({ name: 'MessageRejected' });
    await expect(sesAs('Sender').send(new SendEmailCommand({ ...simple(SENDER, ['big@example.com']), Content: { Simple: { Subject: { Data: 'Big' }, Body: { Text: { Data: 'x'.repeat(29 * mb) } } } } }))).resolves.toMatchObject({
      MessageId: expect.any(String),
    });
  }, 30_000);
});

describe('Function: createSesEmailSender', () => {
  test('sends Simple content with its Text and Html parts, in UTF-8, from the configured sender', async () => {
    // Prepare
    const sender = createSesEmailSender({ sender: SENDER, client: sesAs('Sender') });
    // Act
    await sender.send({ to: 'grace@example.com', subject: 'Réinitialiser', text: 'Bonjour — voilà', html: '<p>Bonjour — voilà</p>' });
    // Assess
    expect(await mailJson('?to=grace@example.com')).toEqual([
      expect.objectContaining({ from: SENDER, to: ['grace@example.com'], subject: 'Réinitialiser', text: 'Bonjour — voilà', html: '<p>Bonjour — voilà</p>' }),
    ]);
  });

  test('a refusal is an EmailUnavailableError naming SES\'s error, never the message', async () => {
    const sender = createSesEmailSender({ sender: SENDER, client: sesAs('Bystander') });
    const refused = sender.send({ to: 'x@example.com', subject: 's', text: 'token abc', html: 'token abc' });
    await expect(refused).rejects.toBeInstanceOf(EmailUnavailableError);
    await expect(refused).rejects.toMatchObject({ failure: 'AccessDeniedException', retryAfterSeconds: 60 });
    await expect(refused).rejects.not.toMatchObject({ message: expect.stringContaining('abc') });
  });

  test('without a sender address it sends nothing', async () => {
    await expect(createSesEmailSender({ sender: undefined, client: sesAs('Sender') }).send({ to: 'x@example.com', subject: 's', text: 't', html: 'h' })).rejects.toMatchObject({
      failure: 'no sender address configured (EMAIL_SENDER)',
    });
  });
});

describe('local mailbox', () => {
  test('GET /messages: newest first; ?to= compares the address case-insensitively', async () => {
    await sesAs('Sender').send(new SendEmailCommand(simple(SENDER, ['order@example.com'], 'first', 'First')));
    await sesAs('Sender').send(new SendEmailCommand(simple(SENDER, ['ORDER@example.com'], 'second', 'Second')));
    expect((await mailJson('?to=Order@Example.com')).map((message) => message.subject)).toEqual(['Second', 'First']);
    const all = await mailJson();
    expect(all[0].subject).toBe('Second');
    expect(new Date(all[0].sent_at).getTime()).toBeGreaterThanOrEqual(new Date(all.at(-1)!.sent_at).getTime());
  });

  test('GET / is the inbox page: each message with its subject, sender, recipients, text with its links, escaped', async () => {
    await sesAs('Sender').send(new SendEmailCommand(simple(SENDER, ['page@example.com'], 'Open http://127.0.0.1:3000/dashboard/invitations/t0k', '<script>alert(1)</script>')));
    const answer = await fetch(`${mailbox.url}/?to=page@example.com`);
    const html = await answer.text();
    expect(answer.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).not.toContain('<script>');
    expect(html).toContain('<a href="http://127.0.0.1:3000/dashboard/invitations/t0k"');
  });

  test('with a data folder, the messages outlast a restart', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'mailbox-'));
    try {
      const message: MailMessage = { id: 'm1', from: SENDER, to: ['a@example.com'], subject: 'Kept', text: 't', html: 'h', sent_at: new Date().toISOString() };
      createMailbox(dataDir).add(message);
      expect(createMailbox(dataDir).messages()).toEqual([message]);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  (browserAvailable() ? test : test.skip)('the inbox page reads at 1280 and 390 px and axe finds no serious or critical violation', async () => {
    await sesAs('Sender').send(new SendEmailCommand(simple(`Payment operations <${SENDER}>`, ['owner@example.com'], 'You were invited to Demo organization.\n\nAccept: http://127.0.0.1:3000/dashboard/invitations/abc\n\nThe link works for 7 days.', "You're invited")));
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
      await page.goto(`${mailbox.url}/?to=owner@example.com`);
      await page.locator('details').first().locator('summary').click();
      expect(await seriousAxeViolations(page)).toEqual([]);
      const files = await screenshotAtBothWidths(page, 'mailbox');
      expect(files).toHaveLength(2);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      // The message's HTML renders in its sandboxed frame without a request or a script.
      expect(await page.frameLocator('iframe').locator('body').textContent()).toContain('You were invited to Demo organization.');
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 60_000);
});
