import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { methodsOf, pathPattern, type Method, type Route } from '../api/operation';
import { MethodNotAllowedError, NotFoundError } from '../errors';
import { observeRequests } from '../observability/middleware';
import { errorEnvelope } from './operation-handler';
import type { ApiEvent, ApiResult } from './response';

const METHOD_ORDER: Method[] = ['GET', 'HEAD', 'POST', 'DELETE'];

/**
 * The answer to a request no route takes (API Gateway's `$default` route), as the error
 * envelope: a path that `routes` declare, asked with another method, is a 405 whose `Allow`
 * lists the methods the path takes; any other path is a 404.
 */
export function unmatchedRoute(routes: Route[]) {
  const paths = routes.map((route) => ({ pattern: pathPattern(route.path), methods: methodsOf(route) }));
  return middy<ApiEvent, ApiResult, Error, Context>()
    .use(observeRequests())
    .use(errorEnvelope())
    .handler(async (event) => {
      const taken = new Set(paths.filter(({ pattern }) => pattern.test(event.rawPath)).flatMap(({ methods }) => methods));
      // The words of a test-only route asked with a live key (shared/http/api.ts): the two stay alike.
      if (taken.size === 0) throw new NotFoundError('No such route');
      const allow = METHOD_ORDER.filter((method) => taken.has(method));
      throw new MethodNotAllowedError(`${event.requestContext.http.method} is not allowed on this path; it takes ${allow.join(', ')}`, allow);
    });
}
