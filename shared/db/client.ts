import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { watchWrites } from './side-effects';

/** AWS SDK settings for a local stand-in at `endpoint` (DynamoDB Local, the local Secrets Manager): any static credentials do. */
export function localAwsConfig(endpoint: string) {
  return { endpoint, region: process.env.AWS_REGION ?? 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } };
}

export interface DocumentClientOptions {
  endpoint?: string;
  maxAttempts?: number;
}

/**
 * One document client per endpoint, created at module scope by whoever needs it. Against
 * DynamoDB Local any static credentials do (the local contention layer picks the database).
 */
export function createDocumentClient(options: DocumentClientOptions = {}): DynamoDBDocumentClient {
  const endpoint = options.endpoint ?? process.env.DYNAMODB_ENDPOINT;
  const client = new DynamoDBClient({
    ...(endpoint ? localAwsConfig(endpoint) : {}),
    maxAttempts: options.maxAttempts ?? 3,
  });
  const documents = DynamoDBDocumentClient.from(client, {
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
  });
  watchWrites(documents);
  return documents;
}

let shared: DynamoDBDocumentClient | undefined;

/** The process-wide client for the configured endpoint. */
export function documentClient(): DynamoDBDocumentClient {
  shared ??= createDocumentClient();
  return shared;
}
