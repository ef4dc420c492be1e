import { randomInt } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
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

/** A template secret's `GenerateSecretString`, the part CloudFormation's generator reads here. */
export interface GenerateSecretString {
  PasswordLength?: number;
  ExcludeCharacters?: string;
  ExcludePunctuation?: boolean;
  ExcludeUppercase?: boolean;
  ExcludeLowercase?: boolean;
  ExcludeNumbers?: boolean;
  IncludeSpace?: boolean;
  SecretStringTemplate?: string;
  GenerateStringKey?: string;
}

const PUNCTUATION = `!"#$%&'()*+,-./:;<=>?@[\\]^_\`{|}~`;

/**
 * A value as CloudFormation generates it when it creates the secret (GetRandomPassword's rules:
 * 32 characters unless told, from letters, digits and punctuation less what is excluded), or,
 * with a template and a key, that JSON with the generated string at the key.
 */
export function generateSecretValue(spec: GenerateSecretString): string {
  let alphabet = [
    spec.ExcludeUppercase ? '' : 'ABCDEFGHIJKLMNOPQRSTUVWXYZ',
    spec.ExcludeLowercase ? '' : 'abcdefghijklmnopqrstuvwxyz',
    spec.ExcludeNumbers ? '' : '0123456789',
    spec.ExcludePunctuation ? '' : PUNCTUATION,
    spec.IncludeSpace ? ' ' : '',
  ].join('');
  alphabet = [...alphabet].filter((character) => !(spec.ExcludeCharacters ?? '').includes(character)).join('');
  const generated = Array.from({ length: spec.PasswordLength ?? 32 }, () => alphabet[randomInt(alphabet.length)]).join('');
  if (spec.SecretStringTemplate === undefined || spec.GenerateStringKey === undefined) return generated;
  return JSON.stringify({ ...JSON.parse(spec.SecretStringTemplate), [spec.GenerateStringKey]: generated });
}

/**
 * The generated values of a stack's secrets, kept in the data folder's `secrets.json` (nowhere
 * for `:memory:`) as CloudFormation keeps a secret's value across updates: a restart of
 * `npm start` reads the same keys, so what was derived from them (the customer emails' index)
 * still matches.
 */
export function keptSecretValues(dataDir: string) {
  const file = dataDir === ':memory:' ? undefined : join(dataDir, 'secrets.json');
  const kept: Record<string, string> = file && existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  return (logicalId: string, spec: GenerateSecretString): string => {
    if (kept[logicalId] !== undefined) return kept[logicalId];
    kept[logicalId] = generateSecretValue(spec);
    if (file) {
      writeFileSync(`${file}.next`, JSON.stringify(kept), { mode: 0o600 });
      renameSync(`${file}.next`, file);
    }
    return kept[logicalId];
  };
}
