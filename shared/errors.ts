/**
 * The service's error classes. Each carries what the error envelope needs; the HTTP status
 * they map to is decided in one place, `shared/http/error-envelope.ts`.
 */
export abstract class ServiceError extends Error {
  readonly attribute?: string;
  constructor(detail: string, attribute?: string) {
    super(detail);
    this.name = new.target.name;
    this.attribute = attribute;
  }
  get detail(): string {
    return this.message;
  }
}

/** The request's shape is wrong: malformed JSON, wrong type, unknown field, bad format (400). */
export class InvalidRequestError extends ServiceError {}

/** No usable credentials (401). */
export class NotAuthenticatedError extends ServiceError {}

/** Credentials are fine but do not allow this (403). */
export class PermissionDeniedError extends ServiceError {}

/** Unknown, malformed, foreign or other-mode id; deliberately one message for all (404). */
export class NotFoundError extends ServiceError {
  constructor(detail = 'The requested resource does not exist') {
    super(detail);
  }
}

/** The path exists, but not with this method (405): `allow` lists the methods it takes. */
export class MethodNotAllowedError extends ServiceError {
  constructor(
    detail: string,
    readonly allow: string[],
  ) {
    super(detail);
  }
}

/** The resource's state forbids the action (409). `reason` is added to the envelope when set. */
export class ConflictError extends ServiceError {
  constructor(
    detail: string,
    readonly reason?: string,
  ) {
    super(detail);
  }
}

/** The request is well-formed but breaks a business rule (422). */
export class BusinessRuleError extends ServiceError {}

/** The request body is larger than the service accepts (LIMITS.requestBodyBytes). */
export class PayloadTooLargeError extends ServiceError {}

/** Too many requests of one kind in a window (429): retry after `retryAfterSeconds`. */
export class TooManyRequestsError extends ServiceError {
  constructor(
    detail: string,
    readonly retryAfterSeconds: number,
  ) {
    super(detail);
  }
}

/** A dependency (the key store, the table) cannot be reached right now (503). */
export class DependencyUnavailableError extends ServiceError {
  constructor(
    detail = 'The service is temporarily unavailable; retry with exponential backoff',
    readonly retryAfterSeconds = 1,
  ) {
    super(detail);
  }
}

/**
 * Every round of a request's decisive write lost to concurrent writers (503), after it wrote
 * only what a repeat may write again (a checkout opened, nothing paid): a repeat with the same
 * Idempotency-Key runs again instead of being told the request was carried out.
 */
export class OutrunError extends DependencyUnavailableError {}
