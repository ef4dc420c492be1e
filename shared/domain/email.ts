import { DependencyUnavailableError } from '../errors';

/**
 * An email to one person (product-decisions §16: invitations, password resets): the same words
 * as plain text and as HTML, no tracking. Its links may carry a secret (an invitation's or a
 * reset's token), so a message is never logged, evented or put into an error.
 */
export interface Email {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** The port every use case that writes to a person takes; the adapter sends from the stage's sender address. */
export interface EmailSender {
  send(email: Email): Promise<void>;
}

/**
 * The message could not be handed to the mail service (refused, throttled, unreachable or not
 * configured): 503 with Retry-After to a caller, nothing sent. Its detail names the cause,
 * never the message or its recipient.
 */
export class EmailUnavailableError extends DependencyUnavailableError {
  constructor(
    /** What went wrong, for the logs (`MessageRejected`, `throttled`, `no sender configured`): never shown to a caller. */
    readonly failure: string,
  ) {
    super('The email could not be sent right now; try again in a minute', 60);
  }
}
