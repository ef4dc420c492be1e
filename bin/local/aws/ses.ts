import { randomUUID } from 'node:crypto';
import { AWS_LIMITS } from '../../../shared/aws-limits';
import type { Mailbox } from '../mailbox';
import { AwsError } from './aws-error';

/** A request to SES API v2 (REST): its method and path, and the JSON body. */
export interface SesRequest {
  method: string;
  path: string;
  body: Record<string, unknown>;
}

type Addresses = { ToAddresses?: string[]; CcAddresses?: string[]; BccAddresses?: string[] };
type Text = { Data?: string; Charset?: string };
type SimpleContent = { Subject?: Text; Body?: { Text?: Text; Html?: Text } };

/** The address of `Name <a@b>` or of `a@b`. */
const addressOf = (mailbox: string) => (/<([^<>]+)>\s*$/.exec(mailbox)?.[1] ?? mailbox).trim();

/** The bytes of a part as SES sends it: base64 in lines of 76 characters with CRLF (the quota counts after encoding). */
const encodedSize = (text: string | undefined) => {
  const base64 = Math.ceil(Buffer.byteLength(text ?? '', 'utf8') / 3) * 4;
  return base64 + Math.ceil(base64 / 76) * 2;
};

/** A MIME message's size as SES builds it from Simple content: its headers, and each part with its own headers, encoded. */
function mimeSize(from: string, recipients: string[], content: SimpleContent): number {
  const headers = `From: ${from}\r\nTo: ${recipients.join(', ')}\r\nSubject: ${content.Subject?.Data ?? ''}\r\nMIME-Version: 1.0\r\nContent-Type: multipart/alternative; boundary="${'-'.repeat(40)}"\r\n\r\n`;
  const partHeaders = 'Content-Type: text/plain; charset=UTF-8\r\nContent-Transfer-Encoding: base64\r\n\r\n';
  return Buffer.byteLength(headers, 'utf8') + 2 * (partHeaders.length + 46) + encodedSize(content.Body?.Text?.Data) + encodedSize(content.Body?.Html?.Data);
}

/** A MessageId as SES writes it: `0100…-uuid-000000`. */
const messageId = () => `0100${Date.now().toString(16).padStart(12, '0')}-${randomUUID()}-000000`;

/**
 * Amazon SES API v2 `SendEmail` for the local stack (product-decisions §16), served by the local
 * AWS edge after IAM's check of `ses:SendEmail` on the sending identity (artifact mode), and
 * answered in SES's REST shapes: `{"MessageId"}`, or the error type in `x-amzn-ErrorType` with
 * `{"message"}`. Identities are the template's `AWS::SES::EmailIdentity` resources, all taken as
 * verified (in AWS an address is verified by the link SES mails it, a domain by its DNS
 * records); a sender none of them covers is `MessageRejected`, as SES refuses it. SES's message
 * quotas hold: at most 50 recipients across To, CC and BCC, at most 40 MB after encoding. Every
 * message sent is kept in the local mailbox (bin/local/mailbox.ts). Not imitated: the sandbox
 * (recipients must be verified there; here the account is out of it), sending quotas and rates,
 * raw and template content, configuration sets, bounces and complaints.
 */
export function createLocalSes(options: { region: string; account: string; identities: string[]; mailbox: Mailbox }) {
  const identities = options.identities.map((identity) => identity.toLowerCase());
  const arnOf = (identity: string) => `arn:aws:ses:${options.region}:${options.account}:identity/${identity}`;

  /** The identity a sender address is sent as: its own email identity, else its domain's; undefined when none is verified. */
  function verifiedIdentityOf(address: string): string | undefined {
    const lower = address.toLowerCase();
    return [lower, lower.split('@')[1]].find((identity) => identity !== undefined && identities.includes(identity));
  }

  return {
    /**
     * The IAM action and resource a request is checked against, before anything else: SES
     * authorizes the identity it would send as (an unverified sender's own address when none).
     */
    access(request: SesRequest): { action: string; resource: string } {
      if (request.method !== 'POST' || request.path !== '/v2/email/outbound-emails') throw new AwsError('NotFoundException', `${request.method} ${request.path} is not imitated locally`, 404);
      const from = addressOf(String(request.body.FromEmailAddress ?? ''));
      return { action: 'ses:SendEmail', resource: arnOf(verifiedIdentityOf(from) ?? from) };
    },

    sendEmail(body: Record<string, unknown>): { MessageId: string } {
      const fromHeader = String(body.FromEmailAddress ?? '');
      if (!fromHeader) throw new AwsError('BadRequestException', 'FromEmailAddress is required.');
      const content = body.Content as { Simple?: SimpleContent } | undefined;
      if (!content?.Simple) throw new AwsError('BadRequestException', 'Only Simple content is imitated locally (Raw and Template content are not).');
      const destination = (body.Destination ?? {}) as Addresses;
      const recipients = [...(destination.ToAddresses ?? []), ...(destination.CcAddresses ?? []), ...(destination.BccAddresses ?? [])];
      if (recipients.length === 0) throw new AwsError('BadRequestException', 'The Destination names no recipient.');
      if (recipients.length > AWS_LIMITS.ses.recipientsPerMessage) throw new AwsError('MessageRejected', `Recipient count exceeds ${AWS_LIMITS.ses.recipientsPerMessage}.`);
      const from = addressOf(fromHeader);
      if (!verifiedIdentityOf(from)) {
        throw new AwsError('MessageRejected', `Email address is not verified. The following identities failed the check in region ${options.region.toUpperCase()}: ${from}`);
      }
      const { Subject, Body } = content.Simple;
      if (!Subject?.Data || (!Body?.Text?.Data && !Body?.Html?.Data)) throw new AwsError('BadRequestException', 'A Simple message needs a Subject and a Text or Html body.');
      if (mimeSize(fromHeader, recipients, content.Simple) > AWS_LIMITS.ses.messageBytes) {
        throw new AwsError('MessageRejected', `Message length is more than ${AWS_LIMITS.ses.messageBytes} bytes long.`);
      }
      const id = messageId();
      options.mailbox.add({ id, from: fromHeader, to: recipients, subject: Subject.Data, text: Body.Text?.Data ?? '', html: Body.Html?.Data ?? '', sent_at: new Date().toISOString() });
      return { MessageId: id };
    },
  };
}

export type LocalSes = ReturnType<typeof createLocalSes>;
