import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AwsError } from './artifacts/aws-error';

/** One secret of the local stack: its ARN and name, as Secrets Manager names it, and its value. */
export interface LocalSecret {
  arn: string;
  name: string;
  value: string;
}

const CREATED = new Date();

/**
 * Secrets Manager's GetSecretValue over the local stack's secrets, as the service answers it
 * (JSON 1.1): by ARN or name; an unknown one is ResourceNotFoundException. The artifact mode's
 * AWS edge serves it after its IAM check; source mode serves it as it is (no roles there).
 */
export function localSecrets(secrets: LocalSecret[]) {
  return {
    find: (secretId: string) => secrets.find((secret) => secret.arn === secretId || secret.name === secretId),
    serve(operation: string, body: Record<string, unknown>, secret: LocalSecret | undefined) {
      if (operation !== 'GetSecretValue') throw new AwsError('UnsupportedOperation', `${operation} is not imitated locally`);
      if (!secret) throw new AwsError('ResourceNotFoundException', "Secrets Manager can't find the specified secret.");
      if (body.VersionId !== undefined || (body.VersionStage !== undefined && body.VersionStage !== 'AWSCURRENT')) {
        throw new AwsError('ResourceNotFoundException', "Secrets Manager can't find the specified secret value for staging label or version.");
      }
      return { ARN: secret.arn, Name: secret.name, SecretString: secret.value, VersionId: 'local', VersionStages: ['AWSCURRENT'], CreatedDate: CREATED.getTime() / 1000 };
    },
  };
}

export type LocalSecrets = ReturnType<typeof localSecrets>;

const JSON_1_1 = 'application/x-amz-json-1.1';

/** Source mode's Secrets Manager (SECRETS_MANAGER_ENDPOINT): the same answers, on a port of its own. */
export async function startLocalSecretsManager(secrets: LocalSecrets): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const [service, operation] = String(request.headers['x-amz-target'] ?? '').split('.');
    try {
      if (service !== 'secretsmanager') throw new AwsError('UnknownOperationException', 'Only Secrets Manager is served here');
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
      response.writeHead(200, { 'content-type': JSON_1_1 });
      response.end(JSON.stringify(secrets.serve(operation, body, secrets.find(String(body.SecretId ?? '')))));
    } catch (error) {
      const refusal = error instanceof AwsError ? error : new AwsError('InternalServiceError', (error as Error).message, 500);
      response.writeHead(refusal.status, { 'content-type': JSON_1_1 });
      response.end(JSON.stringify({ __type: refusal.code, message: refusal.message }));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
