import type { EmailSender } from '../domain/email';
import { loadConfig } from '../config';
import { once, onceAsync } from './wiring';

/** The SES adapter, loaded on the first message: a sign-in that sends nothing never loads the SES client. */
const sesSender = /* @__PURE__ */ onceAsync(async () => {
  const { createSesEmailSender } = await import('../email/ses-sender');
  return createSesEmailSender({ sender: loadConfig().emailSender });
});

/** The functions that write to people (their routes declare `email`): SES, from the stage's sender address (EMAIL_SENDER). */
export const emailSender = /* @__PURE__ */ once((): EmailSender => ({ send: async (email) => (await sesSender()).send(email) }));
