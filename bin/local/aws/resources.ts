import { localKeyId } from './kms';
import { createIntrinsicResolver, resourcesOfType, type CfnResource, type SynthesizedStack } from './template';

/** Where the stand-ins of a stack's resources answer on this machine. */
export interface LocalEndpoints {
  /** The table's name when the stack has one table (a stack with more names each `<tableName>-<logical id>`). */
  tableName: string;
  /** The local AWS edge (SQS queue URLs point at it). */
  edgeUrl: string;
  /** The API's base URL; read when a function's environment is resolved, after the server listens. */
  apiUrl(): string;
  /** The table's stream label in DynamoDB Local (the part after `/stream/`). */
  streamLabel(tableName: string): string;
}

/** Physical name properties, per resource type; a resource without one gets `<stack>-<logical id>`. */
const NAME_PROPERTY: Record<string, string> = {
  'AWS::SQS::Queue': 'QueueName',
  'AWS::Events::EventBus': 'Name',
  'AWS::Events::Rule': 'Name',
  'AWS::Lambda::Function': 'FunctionName',
  'AWS::IAM::Role': 'RoleName',
  'AWS::Logs::LogGroup': 'LogGroupName',
  'AWS::S3::Bucket': 'BucketName',
  'AWS::SecretsManager::Secret': 'Name',
  'AWS::SES::EmailIdentity': 'EmailIdentity',
  'AWS::KMS::Alias': 'AliasName',
};

/**
 * The local names and ARNs of a stack's resources, and the template's intrinsics resolved to
 * them: `Ref` and `Fn::GetAtt` give what CloudFormation would give, with this machine's
 * endpoints (queue URLs at the edge, the API at the local server).
 */
export function localResources(stack: SynthesizedStack, endpoints: LocalEndpoints) {
  const { region, account } = stack;
  // A key's name is its id, a UUID KMS gives it (the same on every run of one template).
  const keyIds = new Map(resourcesOfType(stack, 'AWS::KMS::Key').map(([logicalId]) => [logicalId, localKeyId(stack.stackName, logicalId)]));
  const tables = resourcesOfType(stack, 'AWS::DynamoDB::Table').map(([logicalId]) => logicalId);
  const arnPrefix = (service: string) => `arn:aws:${service}:${region}:${account}:`;

  function resource(logicalId: string): CfnResource {
    const found = stack.resources[logicalId];
    if (!found) throw new Error(`The template has no resource ${logicalId}`);
    return found;
  }

  function nameOf(logicalId: string): string {
    const { Type, Properties } = resource(logicalId);
    if (Type === 'AWS::DynamoDB::Table') return tables.length === 1 ? endpoints.tableName : `${endpoints.tableName}-${logicalId}`;
    if (Type === 'AWS::KMS::Key') return keyIds.get(logicalId)!;
    const property = NAME_PROPERTY[Type];
    const given = property ? Properties?.[property] : undefined;
    if (typeof given === 'string') return given;
    // Bucket names are lower case, at most 63 characters (CloudFormation's own are so too).
    return Type === 'AWS::S3::Bucket' ? `${stack.stackName}-${logicalId}`.toLowerCase().slice(0, 63) : `${stack.stackName}-${logicalId}`;
  }

  function arnOf(logicalId: string): string {
    const { Type, Properties } = resource(logicalId);
    const name = nameOf(logicalId);
    switch (Type) {
      case 'AWS::DynamoDB::Table':
        return `${arnPrefix('dynamodb')}table/${name}`;
      case 'AWS::SQS::Queue':
        return `${arnPrefix('sqs')}${name}`;
      case 'AWS::Events::EventBus':
        return `${arnPrefix('events')}event-bus/${name}`;
      case 'AWS::Events::Rule': {
        const bus = Properties?.EventBusName ? `${resolve(Properties.EventBusName)}/` : '';
        return `${arnPrefix('events')}rule/${bus}${name}`;
      }
      case 'AWS::Lambda::Function':
        return `${arnPrefix('lambda')}function:${name}`;
      case 'AWS::IAM::Role':
        return `arn:aws:iam::${account}:role/${name}`;
      case 'AWS::Logs::LogGroup':
        return `${arnPrefix('logs')}log-group:${name}:*`;
      case 'AWS::S3::Bucket':
        return `arn:aws:s3:::${name}`;
      case 'AWS::KMS::Key':
        return `${arnPrefix('kms')}key/${name}`;
      case 'AWS::SES::EmailIdentity':
        return `${arnPrefix('ses')}identity/${name}`;
      case 'AWS::SecretsManager::Secret':
        // Secrets Manager adds six random characters to a secret's name in its ARN.
        return `${arnPrefix('secretsmanager')}secret:${name}-local0`;
      default:
        throw new Error(`No local ARN for ${logicalId} (${Type})`);
    }
  }

  function reference(logicalId: string, attribute?: string): string {
    const { Type } = resource(logicalId);
    if (!attribute) {
      if (Type === 'AWS::SQS::Queue') return queueUrl(logicalId);
      if (Type === 'AWS::ApiGatewayV2::Api') return logicalId;
      if (Type === 'AWS::SecretsManager::Secret') return arnOf(logicalId);
      return nameOf(logicalId);
    }
    if (attribute === 'Arn') return arnOf(logicalId);
    if (Type === 'AWS::DynamoDB::Table' && attribute === 'StreamArn') return `${arnOf(logicalId)}/stream/${endpoints.streamLabel(nameOf(logicalId))}`;
    if (Type === 'AWS::SQS::Queue' && attribute === 'QueueName') return nameOf(logicalId);
    if (Type === 'AWS::SQS::Queue' && attribute === 'QueueUrl') return queueUrl(logicalId);
    if (Type === 'AWS::Events::EventBus' && attribute === 'Name') return nameOf(logicalId);
    if (Type === 'AWS::ApiGatewayV2::Api' && attribute === 'ApiEndpoint') return endpoints.apiUrl();
    throw new Error(`Fn::GetAtt ${logicalId}.${attribute} (${Type}) is not resolved locally`);
  }

  const queueUrl = (logicalId: string) => `${endpoints.edgeUrl}/${account}/${nameOf(logicalId)}`;
  const resolve = createIntrinsicResolver(stack, reference);

  return { nameOf, arnOf, queueUrl, resolve, tables };
}

export type LocalResources = ReturnType<typeof localResources>;
