import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { AcquirerUnavailableError } from '../../shared/domain/acquirer';
import { DependencyUnavailableError } from '../../shared/errors';
import type { ApiEvent, ApiResult } from '../../shared/http/response';
import { LIMITS } from '../../shared/limits';
import { logger } from '../../shared/observability/logger';
import { observeRequests } from '../../shared/observability/middleware';
import { notificationCheck, notificationStore } from '../../shared/services/acquirer-notifications';
import { receiveNotifications } from '../../shared/use-cases/acquirer-receipt';

const deps = { notifications: notificationCheck, store: notificationStore(), now: () => new Date() };

const text = (statusCode: number, body: string, headers: Record<string, string> = {}): ApiResult => ({
  statusCode,
  headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', ...headers },
  body,
});

/** How a refused batch is answered: anything but `[accepted]` makes the acquirer deliver it again (and show it failing). */
const REFUSED = {
  credentials: () => text(401, 'Unauthorized', { 'www-authenticate': 'Basic realm="acquirer notifications"' }),
  signature: () => text(403, 'Forbidden'),
  malformed: () => text(400, 'Bad Request'),
};

/**
 * POST /acquirer/adyen/notifications: the acquirer's notification batches (Adyen's standard
 * webhooks), public to API Gateway; the function checks the sender. `[accepted]` only once
 * every notification of the batch is kept in the table.
 */
export const handler = middy<ApiEvent, ApiResult, Error, Context>()
  .use(observeRequests())
  .use({
    onError: async (request) => {
      const { error } = request;
      if (error instanceof DependencyUnavailableError) {
        logger.warn('acquirer notification batch not kept now; the acquirer delivers it again', { failure: error instanceof AcquirerUnavailableError ? error.failure : error.message });
        request.response = text(503, 'Service Unavailable', { 'retry-after': String(error.retryAfterSeconds) });
        return;
      }
      logger.error('acquirer notification batch not kept', { error: error as Error });
      request.response = text(500, 'Internal Server Error');
    },
  })
  .handler(async (event) => {
    const body = event.body ? (event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body) : '';
    if (Buffer.byteLength(body) > LIMITS.requestBodyBytes) return text(413, 'Content Too Large');
    const receipt = await receiveNotifications(deps, { authorization: event.headers?.authorization, body });
    return receipt.accepted ? text(200, receipt.acknowledgement) : REFUSED[receipt.reason]();
  });
