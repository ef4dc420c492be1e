import { DEFAULT_STAGE, stageNamed } from '../../lib/stages';
import { secretsKeyAlias } from '../../shared/crypto/kms-sealer';

/** Where `npm start` serves its local AWS edge (AWS_PORT), so that `npm run ops` finds it. */
export const DEFAULT_AWS_PORT = 4566;

/** The access key id of the operator's calls to the local AWS. */
export const OPERATOR_ACCESS_KEY_ID = 'operator';

/**
 * What an operator's process needs to call the local AWS at `edgeUrl` as `npm run ops` calls
 * AWS: the edge, and the stage's secrets key by its alias (what `webhook create` seals with). In
 * AWS the operator runs ops with credentials of their own, an administrator's, with TABLE_NAME
 * and SECRETS_KEY_ARN set from the stack's outputs (docs/operations.md); the local IAM models
 * the functions' roles, not people's, so the edge lets the operator's calls through unchecked.
 */
export function operatorEnvironment(edgeUrl: string, region: string, stackName: string): Record<string, string> {
  return {
    AWS_ENDPOINT_URL: edgeUrl,
    AWS_REGION: region,
    AWS_ACCESS_KEY_ID: OPERATOR_ACCESS_KEY_ID,
    AWS_SECRET_ACCESS_KEY: OPERATOR_ACCESS_KEY_ID,
    SECRETS_KEY_ARN: secretsKeyAlias(stackName),
  };
}

/** `npm run ops` against `npm start`: its edge on AWS_PORT, the local stage's stack. */
export const localOperatorEnvironment = (): Record<string, string> =>
  operatorEnvironment(`http://127.0.0.1:${Number(process.env.AWS_PORT ?? DEFAULT_AWS_PORT)}`, 'local', stageNamed(DEFAULT_STAGE).stackName);
