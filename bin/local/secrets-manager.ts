import { AwsError } from './aws/aws-error';

/** One secret of the local stack: its ARN and name, as Secrets Manager names it, and its value. */
export interface LocalSecret {
  arn: string;
  name: string;
  value: string;
}

const CREATED = new Date();

/**
 * Secrets Manager's GetSecretValue over the local stack's secrets, as the service answers it
 * (JSON 1.1): by ARN or name; an unknown one is ResourceNotFoundException. The local AWS edge
 * serves it after its IAM check (in artifact mode).
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
