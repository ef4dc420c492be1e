import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { AcquirerUnavailableError } from '../domain/acquirer';
import * as z from '../zod';

/**
 * The acquirer's credentials, all in one Secrets Manager secret (product-decisions §12): the
 * Checkout API key and its environment, the HMAC key of the notifications and their Basic
 * credentials. `endpoint` exists only in the local stack's secret: the local Adyen's URL, where
 * the same adapter sends its requests. docs/operations.md shows how to set the value.
 */
const AdyenSecretSchema = /* @__PURE__ */ (() =>
  z.object({
    apiKey: z.string().check(z.minLength(1)),
    environment: z.enum(['test', 'live']),
    liveEndpointUrlPrefix: z.optional(z.string().check(z.minLength(1))),
    endpoint: z.optional(z.string().check(z.minLength(1))),
    hmacKey: z.string().check(z.regex(/^(?:[0-9A-Fa-f]{2})+$/)),
    notificationUsername: z.string().check(z.minLength(1)),
    notificationPassword: z.string().check(z.minLength(1)),
  }))();

export type AdyenSecret = z.infer<typeof AdyenSecretSchema>;

/**
 * Reads and checks the secret (the composition root reads it once per cold start). Every
 * failure is an `AcquirerUnavailableError` (503 to a caller, a retry to a job) whose log text
 * names what went wrong, never the value.
 */
export async function readAdyenSecret(arn: string | undefined): Promise<AdyenSecret> {
  if (!arn) throw new AcquirerUnavailableError('no acquirer secret configured (ADYEN_SECRET_ARN)');
  const client = new SecretsManagerClient({});
  let value: string | undefined;
  try {
    value = (await client.send(new GetSecretValueCommand({ SecretId: arn }))).SecretString;
  } catch (error) {
    throw new AcquirerUnavailableError(`the acquirer secret could not be read: ${(error as Error).name}`);
  } finally {
    client.destroy();
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(value ?? '');
  } catch {
    throw new AcquirerUnavailableError('the acquirer secret is not JSON');
  }
  const secret = AdyenSecretSchema.safeParse(parsed);
  // Only the paths of what is wrong: an issue's message could quote a value.
  if (!secret.success) throw new AcquirerUnavailableError(`the acquirer secret is malformed at ${secret.error.issues.map((issue) => issue.path.join('.') || '(root)').join(', ')}`);
  return secret.data;
}
