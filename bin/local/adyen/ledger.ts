import { createHash, randomBytes, randomInt } from 'node:crypto';
import type { NotificationItem } from './notifier';

/**
 * The local Adyen's books: Hosted Checkout sessions, the payments paid on their pages, and the
 * disputes raised on them, with the rules that decide what Adyen answers and which
 * notifications it sends. In memory: a restarted local Adyen starts empty, as a fresh test
 * account would.
 */

export interface Amount {
  value: number;
  currency: string;
}

/** A refusal in the shape of the documents' ServiceError, answered with its `status`. */
export class AdyenServiceError extends Error {
  constructor(
    readonly status: number,
    readonly errorCode: string,
    message: string,
    readonly errorType: 'validation' | 'security' | 'configuration' | 'internal',
  ) {
    super(message);
  }
  /** As in the documents' examples, a refusal past authentication carries a pspReference of its own. */
  get body() {
    const body = { status: this.status, errorCode: this.errorCode, message: this.message, errorType: this.errorType };
    return this.status === 401 ? body : { ...body, pspReference: pspReference() };
  }
}

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** Adyen's references are 16 characters, unique across its platform. */
export function pspReference(): string {
  return Array.from(randomBytes(16), (byte) => ALPHANUMERIC[byte % ALPHANUMERIC.length]).join('');
}

/** Adyen writes instants with an offset and whole seconds. */
const adyenDate = (date: Date) => `${date.toISOString().slice(0, 19)}+00:00`;

export interface Session {
  id: string;
  merchantAccount: string;
  amount: Amount;
  reference: string;
  returnUrl: string;
  expiresAt: Date;
  manualCapture: boolean;
  /** Hosted Checkout: only such a session has a page. */
  hosted: boolean;
  /** Set once the page took a payment, authorised or refused: a session takes one. */
  paymentPspReference?: string;
}

type Brand = 'visa' | 'mc' | 'amex';

interface Payment {
  pspReference: string;
  merchantAccount: string;
  reference: string;
  amount: Amount;
  brand: Brand;
  status: 'authorised' | 'refused' | 'cancelled';
  captured: number;
  refunded: number;
  /** Set by the test control: how the next refund fails. */
  failNextRefund?: 'REFUND' | 'REFUND_FAILED';
}

type DisputeStatus = 'open' | 'accepted' | 'defended' | 'won' | 'lost';

/** A defense document as the local Adyen keeps it: its type, and what arrived (size and digest; the content for the test control that reads it). */
interface SuppliedDocument {
  defenseDocumentTypeCode: string;
  contentType: string;
  size: number;
  sha256: string;
  content: Buffer;
}

interface Dispute {
  pspReference: string;
  payment: Payment;
  amount: Amount;
  reasonCode: string;
  defensePeriodEndsAt: Date;
  status: DisputeStatus;
  supplied: SuppliedDocument[];
  /** The reason it was defended with. */
  defenseReasonCode?: string;
}

export interface Card {
  holderName: string;
  number: string;
  expiryMonth: string;
  expiryYear: string;
  cvc: string;
}

/**
 * Adyen's test holder names that refuse a card payment, with the refusal reason each gives
 * (docs.adyen.com, "Testing result codes and refusal reasons": the `holderName` column).
 */
const REFUSING_HOLDER_NAMES: Record<string, string> = {
  DECLINED: 'Refused',
  REFERRAL: 'Referral',
  ERROR: 'Acquirer Error',
  BLOCK_CARD: 'Blocked Card',
  CARD_EXPIRED: 'Expired Card',
  INVALID_AMOUNT: 'Invalid Amount',
  INVALID_CARD_NUMBER: 'Invalid Card Number',
  ISSUER_UNAVAILABLE: 'Issuer Unavailable',
  NOT_SUPPORTED: 'Not supported',
  NOT_3D_AUTHENTICATED: '3D Not Authenticated',
  NOT_ENOUGH_BALANCE: 'Not enough balance',
  ACQUIRER_FRAUD: 'Acquirer Fraud',
  SHOPPER_CANCELLED: 'Shopper Cancelled',
  FRAUD: 'FRAUD',
  NOT_SUBMITTED: 'Not Submitted',
  TRANSACTION_NOT_PERMITTED: 'Transaction Not Permitted',
  CVC_DECLINED: 'CVC Declined',
  RESTRICTED_CARD: 'Restricted Card',
  ISSUER_SUSPECTED_FRAUD: 'Issuer Suspected Fraud',
  AVS_DECLINED: 'AVS Declined',
  WITHDRAWAL_AMOUNT_EXCEEDED: 'Withdrawal amount exceeded',
  WITHDRAWAL_COUNT_EXCEEDED: 'Withdrawal count exceeded',
};

/** What a test disputes with when it names no reason: the scheme's usual fraud code. */
const DEFAULT_REASON: Record<Brand, string> = { visa: '10.4', mc: '4837', amex: 'F29' };
const REASON_TEXT: Record<string, string> = {
  '10.4': 'Other Fraud-Card Absent Environment',
  '4837': 'No Cardholder Authorization',
  F29: 'Card Not Present',
};

const DEFENSE_PERIOD_DAYS = 14;

type Requirement = 'Required' | 'OneOrMore' | 'Optional';

/** The defense reasons every local dispute offers, with the documents each wants. */
const DEFENSE_REASONS: { code: string; documents: { code: string; level: Requirement }[] }[] = [
  { code: 'SupplyDefenseMaterial', documents: [{ code: 'DefenseMaterial', level: 'Required' }] },
  {
    code: 'GoodsOrServicesProvided',
    documents: [
      { code: 'TIDorInvoice', level: 'Required' },
      { code: 'ProofOfDelivery', level: 'OneOrMore' },
      { code: 'CompellingEvidence', level: 'OneOrMore' },
      { code: 'AdditionalInformation', level: 'Optional' },
    ],
  },
];
const DOCUMENT_TYPES = new Set(DEFENSE_REASONS.flatMap((reason) => reason.documents.map((document) => document.code)));
/**
 * The formats Adyen takes and their largest size (docs.adyen.com, "Defense requirements": JPG and
 * TIFF 10 MB, PDF 2 MB; no PNG), read as decimal megabytes, the stricter reading.
 */
const MAX_DOCUMENT_BYTES: Record<string, number> = { 'application/pdf': 2_000_000, 'image/jpeg': 10_000_000, 'image/tiff': 10_000_000 };
/** How a file of each format starts: content of another format under the type is not that format (a PNG called image/jpeg). */
const SIGNATURES: Record<string, number[][]> = {
  'application/pdf': [[0x25, 0x50, 0x44, 0x46, 0x2d]],
  'image/jpeg': [[0xff, 0xd8, 0xff]],
  'image/tiff': [
    [0x49, 0x49, 0x2a, 0x00],
    [0x4d, 0x4d, 0x00, 0x2a],
  ],
};
const isFormat = (contentType: string, content: Buffer) => SIGNATURES[contentType].some((signature) => signature.every((byte, index) => content[index] === byte));

/** The result of a Dispute Service call: Adyen answers a refusal with 200 and `success: false`. */
const refused = (errorMessage: string) => ({ disputeServiceResult: { success: false, errorMessage } });
const SUCCESS = { disputeServiceResult: { success: true } };

function brandOf(number: string): Brand | undefined {
  if (/^4/.test(number)) return 'visa';
  if (/^(5[1-5]|2[2-7])/.test(number)) return 'mc';
  if (/^3[47]/.test(number)) return 'amex';
  return undefined;
}

function luhn(number: string): boolean {
  let sum = 0;
  for (let index = 0; index < number.length; index += 1) {
    let digit = Number(number[number.length - 1 - index]);
    if (index % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return sum % 10 === 0;
}

export function createLedger(options: { send(item: NotificationItem): void; merchantAccounts?: string[] }) {
  const sessions = new Map<string, Session>();
  const payments = new Map<string, Payment>();
  const disputes = new Map<string, Dispute>();

  const notify = (payment: Payment, item: Omit<NotificationItem, 'merchantAccountCode' | 'eventDate' | 'paymentMethod'>) =>
    options.send({ ...item, merchantAccountCode: payment.merchantAccount, eventDate: adyenDate(new Date()), paymentMethod: payment.brand });

  function account(merchantAccount: string) {
    if (options.merchantAccounts && !options.merchantAccounts.includes(merchantAccount)) {
      throw new AdyenServiceError(403, '901', 'Invalid Merchant Account', 'security');
    }
  }

  function amountIsValid(amount: Amount) {
    if (amount.value < 0) throw new AdyenServiceError(422, '137', 'Invalid amount specified', 'validation');
  }

  /** A modification names a payment of the same merchant account, or there is nothing to modify. */
  function paymentFor(reference: string, merchantAccount: string): Payment {
    account(merchantAccount);
    const payment = payments.get(reference);
    if (!payment || payment.merchantAccount !== merchantAccount) throw new AdyenServiceError(422, '167', 'Original pspReference required for this operation', 'validation');
    return payment;
  }

  /** Answered at once (`received`); the outcome follows in the modification's notification. */
  function received(payment: Payment, body: { merchantAccount: string; reference?: string; amount?: Amount }, eventCode: string, outcome: string | undefined) {
    const reference = pspReference();
    notify(payment, {
      eventCode,
      pspReference: reference,
      originalReference: payment.pspReference,
      merchantReference: body.reference ?? payment.reference,
      amount: body.amount ?? payment.amount,
      success: outcome === undefined ? 'true' : 'false',
      reason: outcome ?? '',
    });
    const echoed = { merchantAccount: body.merchantAccount, ...(body.reference === undefined ? {} : { reference: body.reference }), ...(body.amount ? { amount: body.amount } : {}) };
    return { ...echoed, paymentPspReference: payment.pspReference, pspReference: reference, status: 'received' };
  }

  function dispute(reference: string, merchantAccountCode: string): Dispute | undefined {
    account(merchantAccountCode);
    const found = disputes.get(reference);
    return found && found.payment.merchantAccount === merchantAccountCode ? found : undefined;
  }

  const available = (found: Dispute, code: string) => found.supplied.some((document) => document.defenseDocumentTypeCode === code);
  const satisfied = (found: Dispute, reason: (typeof DEFENSE_REASONS)[number]) => {
    const has = (level: Requirement) => reason.documents.filter((document) => document.level === level);
    return has('Required').every((document) => available(found, document.code)) && (has('OneOrMore').length === 0 || has('OneOrMore').some((document) => available(found, document.code)));
  };

  function disputeNotification(found: Dispute, eventCode: string, disputeStatus: string) {
    const { payment } = found;
    notify(payment, {
      eventCode,
      pspReference: found.pspReference,
      originalReference: payment.pspReference,
      merchantReference: payment.reference,
      amount: found.amount,
      success: 'true',
      reason: REASON_TEXT[found.reasonCode] ?? 'Chargeback',
      additionalData: {
        chargebackReasonCode: found.reasonCode,
        chargebackSchemeCode: payment.brand,
        defensePeriodEndsAt: adyenDate(found.defensePeriodEndsAt),
        defendable: 'true',
        disputeStatus,
        modificationMerchantReferences: payment.reference,
      },
    });
  }

  return {
    /** A Hosted Checkout session, for its page. */
    hostedSession(id: string): Session | undefined {
      const session = sessions.get(id);
      return session?.hosted ? session : undefined;
    },

    createSession(body: { merchantAccount: string; amount: Amount; reference: string; returnUrl: string; mode?: string; expiresAt?: string; additionalData?: Record<string, string> }, hostedUrl: (id: string) => string) {
      account(body.merchantAccount);
      amountIsValid(body.amount);
      if (!URL.canParse(body.returnUrl)) throw new AdyenServiceError(422, '000', 'Invalid returnUrl', 'validation');
      // Adyen's default expiry: one hour after creation.
      const expiresAt = body.expiresAt ? new Date(body.expiresAt) : new Date(Date.now() + 3_600_000);
      const id = `CS${pspReference().slice(0, 14)}`;
      sessions.set(id, { id, merchantAccount: body.merchantAccount, amount: body.amount, reference: body.reference, returnUrl: body.returnUrl, expiresAt, manualCapture: body.additionalData?.manualCapture === 'true', hosted: body.mode === 'hosted' });
      return {
        id,
        merchantAccount: body.merchantAccount,
        amount: body.amount,
        reference: body.reference,
        returnUrl: body.returnUrl,
        expiresAt: adyenDate(expiresAt),
        mode: body.mode ?? 'embedded',
        sessionData: randomBytes(48).toString('base64'),
        // Only Hosted Checkout has a page; an embedded session is paid with Drop-in, which the local Adyen does not serve.
        ...(body.mode === 'hosted' ? { url: hostedUrl(id) } : {}),
      };
    },

    /** The hosted page's Pay: the card is checked as Adyen's page checks it, then the holder name picks the outcome. */
    pay(session: Session, card: Card): { error: string } | { authorised: boolean } {
      const number = card.number.replace(/\s/g, '');
      const month = Number(card.expiryMonth);
      const year = Number(card.expiryYear.length === 2 ? `20${card.expiryYear}` : card.expiryYear);
      if (!card.holderName.trim()) return { error: 'Enter the name on the card' };
      if (!/^\d{12,19}$/.test(number) || !luhn(number)) return { error: 'Invalid card number' };
      const brand = brandOf(number);
      if (!brand) return { error: 'Unable to determine variant' };
      const now = new Date();
      if (!Number.isInteger(month) || month < 1 || month > 12 || !Number.isInteger(year) || year * 12 + month < now.getUTCFullYear() * 12 + now.getUTCMonth() + 1) return { error: 'Invalid expiry date' };
      if (!new RegExp(brand === 'amex' ? '^\\d{4}$' : '^\\d{3}$').test(card.cvc)) return { error: 'CVC is not the right length' };
      // Adyen's test cards: a test holder name (DECLINED, NOT_ENOUGH_BALANCE…) gets its refusal; any other name is authorised.
      const refusal = REFUSING_HOLDER_NAMES[card.holderName.trim()];
      const authorised = refusal === undefined;
      const payment: Payment = {
        pspReference: pspReference(),
        merchantAccount: session.merchantAccount,
        reference: session.reference,
        amount: session.amount,
        brand,
        status: authorised ? 'authorised' : 'refused',
        captured: 0,
        refunded: 0,
      };
      payments.set(payment.pspReference, payment);
      session.paymentPspReference = payment.pspReference;
      const expiry = `${String(month).padStart(2, '0')}/${year}`;
      notify(payment, {
        eventCode: 'AUTHORISATION',
        pspReference: payment.pspReference,
        merchantReference: payment.reference,
        amount: payment.amount,
        success: authorised ? 'true' : 'false',
        reason: authorised ? `${String(randomInt(1_000_000)).padStart(6, '0')}:${number.slice(-4)}:${expiry}` : refusal,
        ...(authorised ? { operations: session.manualCapture ? ['CANCEL', 'CAPTURE', 'REFUND'] : ['REFUND'] } : {}),
        additionalData: { checkoutSessionId: session.id, expiryDate: expiry, cardSummary: number.slice(-4) },
      });
      if (authorised && !session.manualCapture) payment.captured = payment.amount.value;
      return { authorised };
    },

    capture(reference: string, body: { merchantAccount: string; amount: Amount; reference?: string }) {
      const payment = paymentFor(reference, body.merchantAccount);
      amountIsValid(body.amount);
      let outcome: string | undefined;
      if (payment.status !== 'authorised') outcome = 'Payment is not authorised';
      else if (body.amount.currency !== payment.amount.currency) outcome = 'Currency does not match the authorisation';
      else if (body.amount.value > payment.amount.value - payment.captured) outcome = 'Insufficient balance on payment';
      else payment.captured += body.amount.value;
      return received(payment, body, 'CAPTURE', outcome);
    },

    cancel(reference: string, body: { merchantAccount: string; reference?: string }) {
      const payment = paymentFor(reference, body.merchantAccount);
      let outcome: string | undefined;
      if (payment.status !== 'authorised') outcome = 'Payment is not authorised';
      else if (payment.captured > 0) outcome = 'Payment has already been captured';
      else payment.status = 'cancelled';
      return received(payment, body, 'CANCELLATION', outcome);
    },

    refund(reference: string, body: { merchantAccount: string; amount: Amount; reference?: string }) {
      const payment = paymentFor(reference, body.merchantAccount);
      amountIsValid(body.amount);
      const failure = payment.failNextRefund;
      payment.failNextRefund = undefined;
      let outcome: string | undefined;
      if (payment.captured === 0) outcome = "Transaction hasn't been captured, refund not possible";
      else if (body.amount.currency !== payment.amount.currency) outcome = 'Currency does not match the payment';
      else if (body.amount.value > payment.captured - payment.refunded) outcome = 'Insufficient balance on payment';
      else if (failure === 'REFUND') outcome = 'Refused';
      const answer = received(payment, body, 'REFUND', outcome);
      if (outcome) return answer;
      if (failure === 'REFUND_FAILED') {
        // The refund went through Adyen, then the scheme returned it: REFUND success, then REFUND_FAILED.
        notify(payment, { eventCode: 'REFUND_FAILED', pspReference: answer.pspReference, originalReference: payment.pspReference, merchantReference: answer.reference ?? payment.reference, amount: body.amount, success: 'true', reason: 'Refund Failed' });
      } else {
        payment.refunded += body.amount.value;
      }
      return answer;
    },

    /** Test control: what became of a payment here (authorised, refused or cancelled; captured and refunded, in minor units). */
    paymentState(reference: string) {
      const payment = payments.get(reference);
      if (!payment) throw new AdyenServiceError(404, '000', 'No payment has this pspReference', 'validation');
      const { pspReference: psp, merchantAccount, reference: merchantReference, amount, status, captured, refunded } = payment;
      return { pspReference: psp, merchantAccount, merchantReference, amount, status, captured, refunded };
    },

    /** Test control: how the next refund of the payment fails. */
    failNextRefund(reference: string, eventCode: 'REFUND' | 'REFUND_FAILED') {
      const payment = payments.get(reference);
      if (!payment) throw new AdyenServiceError(422, '167', 'Original pspReference required for this operation', 'validation');
      payment.failNextRefund = eventCode;
    },

    /** Test control: the issuer disputes a captured payment (NOTIFICATION_OF_CHARGEBACK, then CHARGEBACK). */
    raiseChargeback(reference: string, amount: Amount | undefined, reasonCode: string | undefined) {
      const payment = payments.get(reference);
      if (!payment || payment.captured === 0) throw new AdyenServiceError(422, '167', 'Only a captured payment can be disputed', 'validation');
      const disputed = amount ?? { value: payment.captured, currency: payment.amount.currency };
      if (disputed.currency !== payment.amount.currency || disputed.value <= 0 || disputed.value > payment.captured) {
        throw new AdyenServiceError(422, '137', 'Invalid amount specified', 'validation');
      }
      const found: Dispute = {
        pspReference: pspReference(),
        payment,
        amount: disputed,
        reasonCode: reasonCode ?? DEFAULT_REASON[payment.brand],
        defensePeriodEndsAt: new Date(Date.now() + DEFENSE_PERIOD_DAYS * 86_400_000),
        status: 'open',
        supplied: [],
      };
      disputes.set(found.pspReference, found);
      disputeNotification(found, 'NOTIFICATION_OF_CHARGEBACK', 'Unresponded');
      disputeNotification(found, 'CHARGEBACK', 'Unresponded');
      return { disputePspReference: found.pspReference };
    },

    /**
     * Test control: the scheme rules. A Visa dispute ends in pre-arbitration (PREARBITRATION_WON or
     * PREARBITRATION_LOST), any other in a reversal or a second chargeback.
     */
    settleDispute(reference: string, outcome: 'won' | 'lost') {
      const found = disputes.get(reference);
      if (!found || (found.status !== 'open' && found.status !== 'defended')) throw new AdyenServiceError(422, '000', 'The dispute is not open', 'validation');
      found.status = outcome;
      const visa = found.payment.brand === 'visa';
      const eventCode = outcome === 'won' ? (visa ? 'PREARBITRATION_WON' : 'CHARGEBACK_REVERSED') : visa ? 'PREARBITRATION_LOST' : 'SECOND_CHARGEBACK';
      disputeNotification(found, eventCode, outcome === 'won' ? 'Won' : 'Lost');
      return { disputePspReference: found.pspReference, eventCode };
    },

    acceptDispute(body: { disputePspReference: string; merchantAccountCode: string }) {
      const found = dispute(body.disputePspReference, body.merchantAccountCode);
      if (!found) return refused('Could not find dispute');
      if (found.status !== 'open') return refused(`Dispute cannot be accepted: it is ${found.status}`);
      found.status = 'accepted';
      return SUCCESS;
    },

    defenseReasons(body: { disputePspReference: string; merchantAccountCode: string }) {
      const found = dispute(body.disputePspReference, body.merchantAccountCode);
      if (!found) return refused('Could not find dispute');
      return {
        ...SUCCESS,
        defenseReasons: DEFENSE_REASONS.map((reason) => ({
          defenseReasonCode: reason.code,
          satisfied: satisfied(found, reason),
          defenseDocumentTypes: reason.documents.map((document) => ({ defenseDocumentTypeCode: document.code, requirementLevel: document.level, available: available(found, document.code) })),
        })),
      };
    },

    supplyDefenseDocuments(body: { disputePspReference: string; merchantAccountCode: string; defenseDocuments: { defenseDocumentTypeCode: string; contentType: string; content: string }[] }) {
      const found = dispute(body.disputePspReference, body.merchantAccountCode);
      if (!found) return refused('Could not find dispute');
      if (found.status !== 'open') return refused(`Dispute cannot be defended: it is ${found.status}`);
      const received: SuppliedDocument[] = [];
      for (const document of body.defenseDocuments) {
        if (!DOCUMENT_TYPES.has(document.defenseDocumentTypeCode)) return refused(`Invalid defense document type: ${document.defenseDocumentTypeCode}`);
        const limit = MAX_DOCUMENT_BYTES[document.contentType];
        if (limit === undefined) return refused(`Unsupported content type: ${document.contentType}`);
        const content = Buffer.from(document.content, 'base64');
        if (content.length === 0) return refused('The defense document is empty');
        if (content.length > limit) return refused(`A defense document of type ${document.contentType} may be at most ${limit / 1_000_000} MB`);
        if (!isFormat(document.contentType, content)) return refused(`The defense document is not a ${document.contentType} file`);
        received.push({ defenseDocumentTypeCode: document.defenseDocumentTypeCode, contentType: document.contentType, size: content.length, sha256: createHash('sha256').update(content).digest('hex'), content });
      }
      found.supplied.push(...received);
      return SUCCESS;
    },

    defend(body: { disputePspReference: string; merchantAccountCode: string; defenseReasonCode: string }) {
      const found = dispute(body.disputePspReference, body.merchantAccountCode);
      if (!found) return refused('Could not find dispute');
      if (found.status !== 'open') return refused(`Dispute cannot be defended: it is ${found.status}`);
      if (found.defensePeriodEndsAt.getTime() < Date.now()) return refused('The defense period has ended');
      const reason = DEFENSE_REASONS.find((candidate) => candidate.code === body.defenseReasonCode);
      if (!reason) return refused(`Defense reason is not applicable: ${body.defenseReasonCode}`);
      if (!satisfied(found, reason)) return refused(`Not all required defense documents are supplied for ${reason.code}`);
      found.status = 'defended';
      found.defenseReasonCode = reason.code;
      return SUCCESS;
    },

    /** Test control: what became of a dispute here (its status, the documents supplied, the reason it was defended with); undefined when there is none. */
    disputeState(reference: string) {
      const found = disputes.get(reference);
      const defenseDocuments = found?.supplied.map(({ content: _content, ...described }) => described);
      return found && { disputePspReference: found.pspReference, status: found.status, defenseReasonCode: found.defenseReasonCode ?? null, defenseDocuments };
    },

    /** Test control: the content of a dispute's `index`th supplied document (from 0), base64; undefined when there is none. */
    suppliedDocument(reference: string, index: number) {
      const document = disputes.get(reference)?.supplied[index];
      return document && { contentType: document.contentType, content: document.content.toString('base64') };
    },
  };
}

export type Ledger = ReturnType<typeof createLedger>;
