import type { APIGatewayProxyEventV2 } from 'aws-lambda';

/** The request's cookies (API Gateway payload 2.0 passes them as `event.cookies`). */
export function cookiesOf(event: APIGatewayProxyEventV2): Record<string, string> {
  return Object.fromEntries(
    (event.cookies ?? [])
      .flatMap((cookie) => cookie.split(';'))
      .map((pair) => pair.trim().split('='))
      .filter(([name]) => name)
      .map(([name, ...rest]) => [name, decodeURIComponent(rest.join('='))]),
  );
}
