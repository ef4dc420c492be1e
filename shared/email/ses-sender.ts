import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { EmailUnavailableError, type Email, type EmailSender } from '../domain/email';
import { logger } from '../observability/logger';

const UTF_8 = 'UTF-8';

/**
 * The email port on Amazon SES (API v2 `SendEmail`): Simple content, a subject and a body in
 * plain text and HTML, from the stage's verified sender address (EMAIL_SENDER, lib/email.ts),
 * to one recipient a message. No configuration set, so SES adds no open or click tracking.
 * Every refusal or failure is an `EmailUnavailableError` whose log line names SES's error
 * code, never the recipient or the message, whose links may hold a token.
 */
export function createSesEmailSender(options: { sender: string | undefined; client?: SESv2Client }): EmailSender {
  const client = options.client ?? new SESv2Client({});
  return {
    async send(email: Email): Promise<void> {
      if (!options.sender) throw new EmailUnavailableError('no sender address configured (EMAIL_SENDER)');
      try {
        await client.send(
          new SendEmailCommand({
            FromEmailAddress: options.sender,
            Destination: { ToAddresses: [email.to] },
            Content: {
              Simple: {
                Subject: { Data: email.subject, Charset: UTF_8 },
                Body: { Text: { Data: email.text, Charset: UTF_8 }, Html: { Data: email.html, Charset: UTF_8 } },
              },
            },
          }),
        );
      } catch (error) {
        const failure = (error as Error).name || 'unknown';
        logger.warn('email not sent', { failure });
        throw new EmailUnavailableError(failure);
      }
    },
  };
}
