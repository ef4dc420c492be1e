/**
 * Every bound on what a client sends and what the service writes (product-decisions §1), in
 * one place. AWS's limits are the product's: a request body fits a Lambda payload with room to
 * spare, an event fits an EventBridge entry (256 KB) four times over, and an amount keeps every
 * sum of amounts an exact integer of minor units.
 */
export const LIMITS = {
  /** Request bodies above this are refused with 413 before anything else is read. */
  requestBodyBytes: 1024 * 1024,
  /** Every URL a client gives (redirect_url, webhook_url). */
  urlLength: 2048,
  /** A refund's description, in characters. */
  descriptionLength: 500,
  /**
   * Per key and value in characters; in all, as UTF-8 JSON, at most `bytes`: 50 full ASCII pairs
   * fit (about 27 KB), while characters of three bytes cannot push an event past `eventBytes`.
   */
  metadata: { keys: 50, keyLength: 40, valueLength: 500, bytes: 40 * 1024 },
  /**
   * What a checkout collects from a customer, in characters (UTF-16 code units, as the page's
   * `maxlength` counts): an email address as SMTP carries it (RFC 5321's 256-octet path less
   * its angle brackets), a phone number with room for its formatting, a postal address of a
   * few lines. A paid event carries all three, far inside `eventBytes`.
   */
  customer: { emailLength: 254, phoneLength: 40, addressLength: 500 },
  /** Metadata keys that would reach an object's prototype chain. */
  reservedMetadataKeys: ['__proto__', 'constructor', 'prototype'],
  /** 999,999,999.99 in minor units: the largest amount of any request. */
  amountMinor: 99_999_999_999,
  /**
   * ±9,999,999,999,999.99 in minor units: no balance goes beyond (a conditional write refuses
   * the change), so a balance plus any amount stays below 2^53, an exact JavaScript integer.
   */
  balanceMinor: 999_999_999_999_999,
  /**
   * New open payments that the checkout page opens on one link per fixed window (decisions 42):
   * what a link preview or a mail scanner can write, without holding back a crowd of customers.
   * Returning customers (their open payment reused) and the test helper do not count.
   */
  checkoutOpenings: { perLink: 100, windowSeconds: 60 },
  /** Resends (`POST /v1/events/:id/resend`) per fixed window: of one event, and of one organization and mode. */
  resends: { perEvent: 5, perOrganization: 60, windowSeconds: 60 },
  /**
   * A dispute's evidence (product-decisions §13): each text in characters (code points), the
   * documents named, and all the texts together at most `textsBytes` in UTF-8, so that the
   * chargeback's item, which holds them, stays inside DynamoDB's 400 KB (409,600 bytes) with
   * room for the rest of it (its bounded fields take at most about 12 KB). Five texts of 20,000
   * characters take at most 300,000 bytes unless they hold characters beyond U+FFFF (four bytes
   * each, such as emoji; 400,000 bytes at worst); events carry no texts (docs/decisions.md 81).
   * A document is at most `documentBytes` (4 MiB) and is uploaded within `uploadSeconds` of its
   * creation. A PNG sent to an acquirer that takes none is turned into a PDF, decoded when it has
   * transparency or interlacing: at most `pngPixels` (16-bit RGBA, about 134 MB decoded, well
   * inside the dispute function's 1,024 MB), so a small file cannot unfold into gigabytes.
   */
  evidence: {
    textLength: 20_000,
    documents: 5,
    textsBytes: 384_000,
    documentBytes: 4 * 1024 * 1024,
    uploadSeconds: 15 * 60,
    filenameLength: 255,
    pngPixels: 4096 * 4096,
  },
  /** A webhook endpoint's `enabled_events`: how many patterns, and how long each (characters). */
  webhookEndpoint: { patterns: 64, patternLength: 200 },
  /**
   * Signing in to the dashboard (product-decisions §16): failures per email and per address
   * within a window that opens at the first failure; the failure that fills either refuses it
   * for a whole window from then on (a 429 with Retry-After), the right password included.
   */
  signIn: { failuresPerEmail: 5, failuresPerAddress: 50, windowSeconds: 15 * 60 },
  /**
   * A person's password, in characters (code points) after NFKC normalization: OWASP ASVS 5.0
   * V6.2.1 asks for at least 8 (15 strongly recommended), V6.2.9 lets at least 64 through.
   */
  password: { minLength: 12, maxLength: 128 },
  /**
   * Password reset requests (product-decisions §16) within a window: per address, refused past
   * the limit (429: it says nothing about any email); per email, answered the same as ever but
   * sending no more messages (the Copenhagen Book: strict limits on anything that sends email).
   */
  passwordResetRequests: { perEmail: 3, perAddress: 20, windowSeconds: 60 * 60 },
  /** A person's name on the team page, in characters. */
  personNameLength: 100,
  /**
   * The API stage's throttle of each route (lib/stages.ts, every stage's `api` throttle): requests
   * per second, and the burst above it. API Gateway refuses the excess before any function runs,
   * with its own `429 {"message":"Too Many Requests"}` (documented on every operation).
   */
  stageThrottle: { requestsPerSecond: 1000, burst: 2000 },
  /** A browser's `User-Agent` as a session and an audit record keep it, in characters (longer ones are cut). */
  userAgentLength: 200,
  /** An API key's name (product-decisions §17), in characters. */
  apiKeyNameLength: 100,
  /** No event the service writes is larger (its envelope as JSON, in bytes). */
  eventBytes: 64 * 1024,
} as const;
