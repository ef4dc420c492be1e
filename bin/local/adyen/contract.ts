import Ajv2020, { type ErrorObject } from 'ajv/dist/2020';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Adyen's published contract, read from the vendored documents in `./openapi` (Checkout v71,
 * Dispute Service v30, standard webhooks v1): which operation a request path is, and what is
 * wrong with a body against the documents' own schemas. The local Adyen checks every request it
 * receives with it; the contract tests check both sides of the wire with it.
 *
 * The documents are OpenAPI 3.1, whose schemas are JSON Schema 2020-12: ajv compiles them
 * strictly, so a keyword it does not know fails the compile rather than pass unchecked. Adyen's
 * own annotations (`x-addedInVersion`, `x-anyOf`, `example`, `discriminator`, ...) carry nothing to
 * check; `nullable` (OpenAPI 3.0's, left in two Checkout schemas) is ajv's own keyword and lets a null pass.
 */
export type AdyenDocument = 'checkout' | 'disputes' | 'webhooks';

const FILES: Record<AdyenDocument, string> = {
  checkout: 'CheckoutService-v71.json',
  disputes: 'DisputeService-v30.json',
  webhooks: 'Webhooks-v1.json',
};

const ANNOTATIONS = [
  'x-addedInVersion',
  'x-deprecatedInVersion',
  'x-deprecatedMessage',
  'x-anyOf',
  'example',
  'externalDocs',
  'discriminator',
];

interface OpenApiOperation {
  operationId: string;
  requestBody?: { content: Record<string, { schema: { $ref: string } }> };
  responses: Record<string, { content?: Record<string, { schema: { $ref: string } }> }>;
}

export interface OpenApiDocument {
  servers?: { url: string }[];
  paths?: Record<string, Record<string, OpenApiOperation>>;
  webhooks?: Record<string, { post: OpenApiOperation }>;
  components: Record<string, unknown>;
}

export interface AdyenOperation {
  document: 'checkout' | 'disputes';
  operationId: string;
  /** The path's parameters (`paymentPspReference`). */
  params: Record<string, string>;
  /** The schema of the request body, as a `$ref`. */
  request: string;
  /** The schema of the answer with `status`: the operation's own, else the document's ServiceError. */
  response(status: number): string;
}

export interface AdyenContract {
  /** The operation a request is, by method and path (`POST /v71/payments/{psp}/captures`). */
  operation(method: string, path: string): AdyenOperation | undefined;
  /** What is wrong with `value` against the schema `ref` of `document`: nothing when it conforms. */
  problems(document: AdyenDocument, ref: string, value: unknown): string[];
  /** The same, as ajv's errors (keyword and parameters), for a server that answers them. */
  violations(document: AdyenDocument, ref: string, value: unknown): ErrorObject[];
  /** What is wrong with a notification batch against the webhook of each item's event code. */
  notificationProblems(batch: unknown): string[];
}

const INT32 = 2 ** 31;
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;

/**
 * Base64 as RFC 4648 writes it, padded. A character class and the length, not a repeated group
 * of four: over a document of megabytes, V8 can run out of stack backtracking a repeated group.
 */
const BASE64_ALPHABET = /^[A-Za-z0-9+/]*={0,2}$/;
const isBase64 = (value: string) => value.length % 4 === 0 && BASE64_ALPHABET.test(value);

let contract: AdyenContract | undefined;

/** One of the vendored documents, parsed (its examples, for tests). */
export function adyenDocument(name: AdyenDocument): OpenApiDocument {
  return JSON.parse(readFileSync(join(__dirname, 'openapi', FILES[name]), 'utf8')) as OpenApiDocument;
}

/** Read and compiled once per process: the Checkout document alone is 0.9 MB. */
export function adyenContract(): AdyenContract {
  contract ??= compile();
  return contract;
}

function compile(): AdyenContract {
  const documents = { checkout: adyenDocument('checkout'), disputes: adyenDocument('disputes'), webhooks: adyenDocument('webhooks') };
  // strictTypes off: the documents' item wrappers give `properties` without `type: object`, a
  // matter of style that ajv would log on every compile; unknown keywords and formats still fail.
  const ajv = new Ajv2020({ allErrors: true, strictTypes: false });
  ajv.addVocabulary([...ANNOTATIONS, 'components', 'webhooks']);
  ajv.addFormat('int32', { type: 'number', validate: (value: number) => Number.isInteger(value) && value >= -INT32 && value < INT32 });
  ajv.addFormat('int64', { type: 'number', validate: (value: number) => Number.isSafeInteger(value) });
  ajv.addFormat('double', { type: 'number', validate: (value: number) => Number.isFinite(value) });
  ajv.addFormat('byte', { type: 'string', validate: isBase64 });
  ajv.addFormat('date', /^\d{4}-\d{2}-\d{2}$/);
  ajv.addFormat('date-time', (value: string) => RFC3339.test(value) && !Number.isNaN(Date.parse(value)));
  for (const [name, document] of Object.entries(documents)) ajv.addSchema({ $id: name, components: document.components });

  const violations = (document: AdyenDocument, ref: string, value: unknown): ErrorObject[] => {
    const validate = ajv.getSchema(`${document}${ref}`);
    if (!validate) throw new Error(`${ref} is not in ${FILES[document]}`);
    return validate(value) ? [] : [...(validate.errors ?? [])];
  };
  const problems = (document: AdyenDocument, ref: string, value: unknown): string[] =>
    violations(document, ref, value).map((error) => `${error.instancePath || '/'} ${error.message}`);

  const routes = (['checkout', 'disputes'] as const).flatMap((name) => {
    const document = documents[name];
    const base = new URL(document.servers![0].url).pathname;
    return Object.entries(document.paths!).flatMap(([template, methods]) =>
      Object.entries(methods).map(([method, operation]) => {
        const names: string[] = [];
        const source = template.replace(/\{(\w+)\}/g, (_whole, param: string) => {
          names.push(param);
          return '([^/]+)';
        });
        return { name, method: method.toUpperCase(), pattern: new RegExp(`^${base}${source}$`), names, operation };
      }),
    );
  });

  return {
    operation(method, path) {
      for (const route of routes) {
        const match = route.method === method ? route.pattern.exec(path) : null;
        if (!match) continue;
        const { operation, name } = route;
        return {
          document: name,
          operationId: operation.operationId,
          params: Object.fromEntries(route.names.map((param, index) => [param, decodeURIComponent(match[index + 1])])),
          request: operation.requestBody?.content['application/json'].schema.$ref ?? '',
          response: (status) => operation.responses[String(status)]?.content?.['application/json'].schema.$ref ?? '#/components/schemas/ServiceError',
        };
      }
      return undefined;
    },
    problems,
    violations,
    notificationProblems(batch) {
      const items = (batch as { notificationItems?: { NotificationRequestItem?: { eventCode?: string } }[] }).notificationItems;
      if (!Array.isArray(items)) return ['/notificationItems is not an array'];
      return items.flatMap((item, index) => {
        const webhook = documents.webhooks.webhooks![`/${item.NotificationRequestItem?.eventCode}`];
        if (!webhook) return [`/notificationItems/${index} has no documented event code`];
        const ref = webhook.post.requestBody!.content['application/json'].schema.$ref;
        // Each item against its own event's batch schema, as if it travelled alone.
        return problems('webhooks', ref, { ...(batch as object), notificationItems: [item] }).map((problem) => problem.replace('/notificationItems/0', `/notificationItems/${index}`));
      });
    },
  };
}
