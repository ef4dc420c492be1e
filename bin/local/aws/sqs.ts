import { createHash, randomUUID } from 'node:crypto';
import { AWS_LIMITS } from '../../../shared/aws-limits';
import { logger } from '../../../shared/observability/logger';
import { AwsError } from './aws-error';


export interface QueueSettings {
  name: string;
  arn: string;
  url: string;
  visibilityTimeoutSeconds: number;
  delaySeconds: number;
  maximumMessageBytes: number;
  retentionSeconds: number;
  /** RedrivePolicy: after this many receives the next receive moves the message to the dead-letter queue. */
  redrive?: { deadLetterQueue: LocalQueue; maxReceiveCount: number };
}

interface StoredMessage {
  id: string;
  body: string;
  md5: string;
  sentAt: number;
  visibleAt: number;
  receiveCount: number;
  /** MessageGroupId: on a standard queue it makes the queue fair across groups (tenants). */
  group?: string;
  firstReceivedAt?: number;
  receiptHandle?: string;
  receivedAt?: number;
}

/** A message a queue holds, as `peek` shows it. */
export interface HeldMessage {
  body: string;
  state: 'visible' | 'in flight' | 'delayed';
}

/** A message as it is kept across a restart of the local stack. */
export type PersistedMessage = Omit<StoredMessage, 'receiptHandle' | 'receivedAt'>;

/** A received message, as ReceiveMessage answers it. */
export interface ReceivedMessage {
  MessageId: string;
  ReceiptHandle: string;
  MD5OfBody: string;
  Body: string;
  Attributes: Record<string, string>;
}

const md5 = (text: string) => createHash('md5').update(text, 'utf8').digest('hex');

function checkRange(name: string, value: number, max: number) {
  if (!Number.isInteger(value) || value < 0 || value > max) {
    throw new AwsError('InvalidParameterValue', `Value ${value} for parameter ${name} is invalid. Reason: Must be between 0 and ${max}.`);
  }
}

/**
 * One standard SQS queue in memory, with the rules AWS applies: message size, DelaySeconds up to
 * 900, a received message invisible for the visibility timeout (at most 12 hours from its
 * receive), and the redrive policy (a message received maxReceiveCount times moves to the
 * dead-letter queue on its next receive), and fair queues: messages that name a MessageGroupId
 * are handed out group with the fewest messages in flight first, so one tenant's backlog does
 * not hold back another's messages. Not imitated: FIFO queues, message attributes, and the
 * at-least-once duplicates and loose ordering of a distributed queue; retention is.
 */
export class LocalQueue {
  private readonly messages = new Map<string, StoredMessage>();
  private readonly byReceipt = new Map<string, StoredMessage>();
  private readonly waiters = new Set<() => void>();

  constructor(readonly settings: QueueSettings) {}

  send(body: string, delaySeconds?: number, group?: string): { MessageId: string; MD5OfMessageBody: string } {
    const bytes = Buffer.byteLength(body, 'utf8');
    if (bytes > this.settings.maximumMessageBytes) {
      throw new AwsError('InvalidParameterValue', `One or more parameters are invalid. Reason: Message must be shorter than ${this.settings.maximumMessageBytes} bytes.`);
    }
    if (body.length === 0) throw new AwsError('InvalidParameterValue', 'The request must contain the parameter MessageBody.');
    const delay = delaySeconds ?? this.settings.delaySeconds;
    checkRange('DelaySeconds', delay, AWS_LIMITS.sqs.maxDelaySeconds);
    const now = Date.now();
    const message: StoredMessage = { id: randomUUID(), body, md5: md5(body), sentAt: now, visibleAt: now + delay * 1000, receiveCount: 0, ...(group ? { group } : {}) };
    this.messages.set(message.id, message);
    this.wake();
    return { MessageId: message.id, MD5OfMessageBody: message.md5 };
  }

  /** Up to `max` visible messages, waiting up to `waitSeconds` for one (long polling). */
  async receive(options: { max?: number; visibilityTimeoutSeconds?: number; waitSeconds?: number; stopped?: () => boolean } = {}): Promise<ReceivedMessage[]> {
    const max = options.max ?? 1;
    if (!Number.isInteger(max) || max < 1 || max > AWS_LIMITS.sqs.receiveMessages) {
      throw new AwsError('InvalidParameterValue', `Value ${max} for parameter MaxNumberOfMessages is invalid. Reason: Must be between 1 and ${AWS_LIMITS.sqs.receiveMessages}.`);
    }
    const visibility = options.visibilityTimeoutSeconds ?? this.settings.visibilityTimeoutSeconds;
    checkRange('VisibilityTimeout', visibility, AWS_LIMITS.sqs.maxVisibilityTimeoutSeconds);
    const waitSeconds = options.waitSeconds ?? 0;
    checkRange('WaitTimeSeconds', waitSeconds, AWS_LIMITS.sqs.maxWaitTimeSeconds);
    const until = Date.now() + waitSeconds * 1000;
    for (;;) {
      const received = this.take(max, visibility);
      if (received.length > 0 || Date.now() >= until || options.stopped?.()) return received;
      await this.nextChange(until);
    }
  }

  delete(receiptHandle: string): void {
    const message = this.byReceipt.get(receiptHandle);
    if (!message) throw new AwsError('ReceiptHandleIsInvalid', `The input receipt handle "${receiptHandle}" is not a valid receipt handle.`);
    this.forget(message);
  }

  changeVisibility(receiptHandle: string, seconds: number): void {
    const message = this.byReceipt.get(receiptHandle);
    if (!message) throw new AwsError('ReceiptHandleIsInvalid', `The input receipt handle "${receiptHandle}" is not a valid receipt handle.`);
    checkRange('VisibilityTimeout', seconds, AWS_LIMITS.sqs.maxVisibilityTimeoutSeconds);
    const now = Date.now();
    if (message.visibleAt <= now) throw new AwsError('MessageNotInflight', 'The message referred to is not in flight.');
    const total = (now - message.receivedAt!) / 1000 + seconds;
    if (total > AWS_LIMITS.sqs.maxVisibilityTimeoutSeconds) {
      throw new AwsError('InvalidParameterValue', `Value ${seconds} for parameter VisibilityTimeout is invalid. Reason: Total VisibilityTimeout for the message is beyond the limit [${AWS_LIMITS.sqs.maxVisibilityTimeoutSeconds} seconds]`);
    }
    message.visibleAt = now + seconds * 1000;
    if (seconds === 0) this.wake();
  }

  attributes(): Record<string, string> {
    const now = Date.now();
    const messages = [...this.messages.values()];
    return {
      QueueArn: this.settings.arn,
      ApproximateNumberOfMessages: String(messages.filter((message) => message.visibleAt <= now).length),
      ApproximateNumberOfMessagesNotVisible: String(messages.filter((message) => message.receiveCount > 0 && message.visibleAt > now).length),
      ApproximateNumberOfMessagesDelayed: String(messages.filter((message) => message.receiveCount === 0 && message.visibleAt > now).length),
      VisibilityTimeout: String(this.settings.visibilityTimeoutSeconds),
      DelaySeconds: String(this.settings.delaySeconds),
      MaximumMessageSize: String(this.settings.maximumMessageBytes),
      MessageRetentionPeriod: String(this.settings.retentionSeconds),
      ...(this.settings.redrive
        ? { RedrivePolicy: JSON.stringify({ deadLetterTargetArn: this.settings.redrive.deadLetterQueue.settings.arn, maxReceiveCount: this.settings.redrive.maxReceiveCount }) }
        : {}),
    };
  }

  /**
   * Every message still held and when each shows (the stack stopping: `restore` takes them on
   * the next start), as SQS keeps its messages while its consumers restart. A message in flight
   * shows when its visibility timeout ends, as in SQS; its receipt handle is not kept.
   */
  snapshot(): PersistedMessage[] {
    return [...this.messages.values()].map(({ receiptHandle: _handle, receivedAt: _received, ...kept }) => kept);
  }

  /** The messages of a `snapshot`, past the retention period left out. */
  restore(messages: PersistedMessage[]): void {
    const oldest = Date.now() - this.settings.retentionSeconds * 1000;
    for (const message of messages) if (message.sentAt >= oldest) this.messages.set(message.id, { ...message });
    this.wake();
  }

  /** The messages held, oldest first, without receiving them (the console's "poll for messages" view), each with its state now. */
  peek(): HeldMessage[] {
    const now = Date.now();
    return [...this.messages.values()]
      .sort((a, b) => a.sentAt - b.sentAt)
      .map((message) => ({ body: message.body, state: message.visibleAt <= now ? 'visible' : message.receiveCount > 0 ? 'in flight' : 'delayed' }));
  }

  /** Ends every long poll now (the stack is stopping). */
  wake(): void {
    for (const waiter of this.waiters) waiter();
    this.waiters.clear();
  }

  /** Visible messages in the order a fair queue hands them out: fewest in flight in its group first, then oldest. */
  private *fairOrder(now: number): Generator<StoredMessage> {
    const inFlight = new Map<string, number>();
    const visible: StoredMessage[] = [];
    for (const message of this.messages.values()) {
      if (message.visibleAt <= now) visible.push(message);
      else if (message.receiveCount > 0 && message.group) inFlight.set(message.group, (inFlight.get(message.group) ?? 0) + 1);
    }
    while (visible.length > 0) {
      let best = 0;
      for (let i = 1; i < visible.length; i++) {
        if ((inFlight.get(visible[i].group ?? '') ?? 0) < (inFlight.get(visible[best].group ?? '') ?? 0)) best = i;
      }
      const [next] = visible.splice(best, 1);
      if (next.group) inFlight.set(next.group, (inFlight.get(next.group) ?? 0) + 1);
      yield next;
    }
  }

  private take(max: number, visibilitySeconds: number): ReceivedMessage[] {
    const now = Date.now();
    const received: ReceivedMessage[] = [];
    for (const message of this.fairOrder(now)) {
      if (received.length >= max) break;
      if (now - message.sentAt > this.settings.retentionSeconds * 1000) {
        this.forget(message);
        continue;
      }
      const redrive = this.settings.redrive;
      if (redrive && message.receiveCount >= redrive.maxReceiveCount) {
        this.forget(message);
        redrive.deadLetterQueue.send(message.body, 0);
        logger.warn('local SQS: message moved to the dead-letter queue', { queue: this.settings.name, messageId: message.id, receives: message.receiveCount });
        continue;
      }
      if (message.receiptHandle) this.byReceipt.delete(message.receiptHandle);
      message.receiveCount++;
      message.firstReceivedAt ??= now;
      message.receivedAt = now;
      message.receiptHandle = `${message.id}#${randomUUID()}`;
      message.visibleAt = now + visibilitySeconds * 1000;
      this.byReceipt.set(message.receiptHandle, message);
      received.push({
        MessageId: message.id,
        ReceiptHandle: message.receiptHandle,
        MD5OfBody: message.md5,
        Body: message.body,
        Attributes: {
          ApproximateReceiveCount: String(message.receiveCount),
          SentTimestamp: String(message.sentAt),
          ApproximateFirstReceiveTimestamp: String(message.firstReceivedAt),
          SenderId: 'LOCAL',
        },
      });
    }
    return received;
  }

  private forget(message: StoredMessage) {
    this.messages.delete(message.id);
    if (message.receiptHandle) this.byReceipt.delete(message.receiptHandle);
  }

  /** Resolves when a message may have become visible: one was sent, or the next hidden one's time came. */
  private nextChange(until: number): Promise<void> {
    const now = Date.now();
    const nextVisible = Math.min(until, ...[...this.messages.values()].map((message) => message.visibleAt).filter((at) => at > now));
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, Math.max(1, nextVisible - now));
      this.waiters.add(done);
    });
  }
}
