import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { EmailIdentity, Identity } from 'aws-cdk-lib/aws-ses';
import type { IPublicHostedZone } from 'aws-cdk-lib/aws-route53';
import { Construct } from 'constructs';

/** The context key naming the stage's sender address (`cdk deploy -c emailSender=…`). */
export const EMAIL_SENDER_CONTEXT = 'emailSender';

/** The sender of a stack synthesized without one (tests, the local stack): an address of a domain reserved for examples. */
export const DEFAULT_EMAIL_SENDER = 'no-reply@example.com';

export interface EmailProps {
  /** The stage's sender address: the only identity the functions may send from. */
  sender: string;
  /** The hosted zone of the sender's domain (a stage with a domain and a sender): the identity is then that domain, verified by the DKIM records made in the zone. */
  zone?: IPublicHostedZone;
}

/**
 * Email through Amazon SES (product-decisions §16): the stage's sender address as an SES email
 * identity (SES mails it a verification link at deploy; docs/operations.md), or, in a stage
 * with a hosted zone, the sender's domain (verified by DKIM records the stack makes there), and, for each
 * function that writes to people (`connect`), that address as its one setting and
 * ses:SendEmail on that identity only.
 */
export class Email extends Construct {
  readonly identity: EmailIdentity;
  readonly sender: string;

  constructor(scope: Construct, id: string, props: EmailProps) {
    super(scope, id);
    this.sender = props.sender;
    this.identity = new EmailIdentity(this, 'Sender', { identity: props.zone ? Identity.publicHostedZone(props.zone) : Identity.email(props.sender) });
  }

  /** A function that sends email: the sender address (EMAIL_SENDER) and ses:SendEmail on its identity. */
  connect(fn: LambdaFunction): void {
    fn.addEnvironment('EMAIL_SENDER', this.sender);
    // Only SendEmail: the adapter sends Simple content, never raw MIME (SendRawEmail).
    this.identity.grant(fn, 'ses:SendEmail');
  }
}
