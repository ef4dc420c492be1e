import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { AcquirerUnavailableError } from '../../shared/domain/acquirer';
import { DependencyUnavailableError, InvalidRequestError, NotAuthenticatedError, PayloadTooLargeError, PermissionDeniedError } from '../../shared/errors';
import { errorResult } from '../../shared/http/error-envelope';
import { urlsFor, type ApiEvent, type ApiResult } from '../../shared/http/response';
import { LIMITS } from '../../shared/limits';
import { logger } from '../../shared/observability/logger';
import { observeRequests } from '../../shared/observability/middleware';
import { notificationCheck, notificationStore } from '../../shared/services/acquirer-notifications';
import { receiveNotifications } from '../../shared/use-cases/acquirer-receipt';

const deps = { notifications: notificationCheck, store: notificationStore(), now: () => new Date() };

/** Why a batch is refused, as the error envelope says it (product-decisions §1): anything but `[accepted]` makes the acquirer deliver it again. */
const REFUSED = {
  credentials: () => new NotAuthenticatedError('The notification credentials are missing or wrong'),
  signature: () => new PermissionDeniedError('A notification is not signed with the configured HMAC key'),
  malformed: () => new InvalidRequestError('The body is not a notification batch the service can read'),
};

/**
 * POST /acquirer/adyen/notifications: the acquirer's notification batches (Adyen's standard
 * webhooks), public to API Gateway; the function checks the sender. `[accepted]` only once
 * every notification of the batch is kept in the table; a refusal or a failure is the error
 * envelope, a 401 with the Basic challenge.
 */
export const handler = middy<ApiEvent, ApiResult, Error, Context>()
  .use(observeRequests())
  .use({
    onError: async (request) => {
      const { error } = request;
      if (error instanceof DependencyUnavailableError) {
        logger.warn('acquirer notification batch not kept now; the acquirer delivers it again', { failure: error instanceof AcquirerUnavailableError ? error.failure : error.message });
      } else if (!(error instanceof NotAuthenticatedError || error instanceof PermissionDeniedError || error instanceof InvalidRequestError || error instanceof PayloadTooLargeError)) {
        logger.error('acquirer notification batch not kept', { error: error as Error });
      }
      const result = errorResult(error, urlsFor(request.event).docs);
      const challenge = error instanceof NotAuthenticatedError ? { 'www-authenticate': 'Basic realm="acquirer notifications"' } : {};
      request.response = { ...result, headers: { ...result.headers, 'cache-control': 'no-store', ...challenge } };
    },
  })
  .handler(async (event) => {
    const body = event.body ? (event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body) : '';
    if (Buffer.byteLength(body) > LIMITS.requestBodyBytes) throw new PayloadTooLargeError(`The request body is larger than ${LIMITS.requestBodyBytes} bytes`);
    const receipt = await receiveNotifications(deps, { authorization: event.headers?.authorization, body });
    if (!receipt.accepted) throw REFUSED[receipt.reason]();
    return { statusCode: 200, headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' }, body: receipt.acknowledgement };
  });
