/**
 * Runtime configuration, read from the environment once per cold start. Public URLs are
 * configuration (product-decisions §1); when BASE_URL is unset (in AWS behind the default
 * execute-api host) the API derives it from the request.
 */
export interface ServiceConfig {
  tableName: string;
  baseUrl?: string;
  checkoutUrl?: string;
  dashboardUrl?: string;
  docsUrl?: string;
  dynamodbEndpoint?: string;
  /** DOCUMENTS_BUCKET: the evidence documents' bucket (lib/documents.ts); set only on the functions that reach it. */
  documentsBucket?: string;
  /** ADYEN_SECRET_ARN: the one secret holding the acquirer's credentials; set only on the functions that talk to Adyen. */
  adyenSecretArn?: string;
  /** EMAIL_SENDER: the stage's sender address (lib/email.ts); set only on the functions that send email. */
  emailSender?: string;
  /** SECRETS_KEY_ARN: the stage's KMS key that seals secrets (lib/secrets-key.ts); set only on the functions that seal or open them. */
  secretsKeyArn?: string;
  /** CUSTOMER_EMAIL_KEY_ARN: the secret key of the customer emails' index; set only on the functions that find or write payments by email. */
  customerEmailKeyArn?: string;
  eventVersion: string;
  /** REFUND_CANCEL_WINDOW_SECONDS: how long a covered pending refund can be canceled before it is processed. */
  refundCancelWindowSeconds: number;
}

/** A whole number of seconds from the environment, or the default when unset; anything else is a deployment error. */
function seconds(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d{1,7}$/.test(raw)) throw new Error(`${name} must be a whole number of seconds, not ${JSON.stringify(raw)}`);
  return Number(raw);
}

export const EVENT_VERSION = '2026-11-21';

/** product-decisions §6: a covered pending refund is processed once it is this old. */
export const DEFAULT_REFUND_CANCEL_WINDOW_SECONDS = 300;

export function loadConfig(env: NodeJS.ProcessEnv = process.env): ServiceConfig {
  return {
    tableName: env.TABLE_NAME ?? 'payment-ops',
    baseUrl: env.BASE_URL,
    checkoutUrl: env.CHECKOUT_URL,
    dashboardUrl: env.DASHBOARD_URL,
    docsUrl: env.DOCS_URL,
    dynamodbEndpoint: env.DYNAMODB_ENDPOINT,
    documentsBucket: env.DOCUMENTS_BUCKET,
    adyenSecretArn: env.ADYEN_SECRET_ARN,
    emailSender: env.EMAIL_SENDER,
    secretsKeyArn: env.SECRETS_KEY_ARN,
    customerEmailKeyArn: env.CUSTOMER_EMAIL_KEY_ARN,
    eventVersion: EVENT_VERSION,
    refundCancelWindowSeconds: seconds(env, 'REFUND_CANCEL_WINDOW_SECONDS', DEFAULT_REFUND_CANCEL_WINDOW_SECONDS),
  };
}

export interface PublicUrls {
  base: string;
  checkout: string;
  dashboard: string;
  docs: string;
}

export function publicUrls(config: ServiceConfig, requestBase?: string): PublicUrls {
  const base = (config.baseUrl ?? requestBase ?? 'http://127.0.0.1:3000').replace(/\/$/, '');
  return {
    base,
    checkout: config.checkoutUrl ?? `${base}/checkout`,
    dashboard: config.dashboardUrl ?? `${base}/dashboard`,
    docs: config.docsUrl ?? `${base}/docs`,
  };
}

/** Public URLs outside a request (jobs, feeds, hooks of other resources): from configuration. */
export const configuredUrls = (): PublicUrls => publicUrls(loadConfig());
