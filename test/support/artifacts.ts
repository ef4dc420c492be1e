import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { readSynthesizedStack, type CfnResource } from '../../bin/local/aws/template';
export { functionOfRoute } from '../../bin/local/aws/template';

/** A folder of synthesized artifacts; `remove` deletes it when the test made it. */
export interface ArtifactsFolder {
  dir: string;
  remove(): void;
}

const temporary = (dir: string): ArtifactsFolder => ({ dir, remove: () => rmSync(dir, { recursive: true, force: true }) });

/**
 * A `cdk synth -o` folder for artifact-mode tests: LAMBDA_ARTIFACTS when set (a synth made
 * once for the run), else a fresh synth into a temporary folder (esbuild bundles every
 * function: about a minute).
 */
export async function synthesizedArtifacts(): Promise<ArtifactsFolder> {
  if (process.env.LAMBDA_ARTIFACTS) return { dir: resolve(process.env.LAMBDA_ARTIFACTS), remove: () => {} };
  const dir = mkdtempSync(join(tmpdir(), 'artifacts-'));
  // Without aws-cdk-lib's built-in CloudFormation validation, which only warns: cfn-lint checks the template (test/http/artifacts).
  await promisify(execFile)('npx', ['cdk', 'synth', '--quiet', '--no-validation', '--output', dir], { cwd: join(__dirname, '..', '..'), maxBuffer: 64 * 1024 * 1024 });
  return temporary(dir);
}

type Resources = Record<string, CfnResource>;

/**
 * A copy of a synth folder whose template `edit` changed (the bundles are linked, not copied);
 * `bundles` adds asset folders by name, each a map of file name to content. `edit` gets the
 * resources as artifact mode reads them, nested stacks read in (`readSynthesizedStack`), and the
 * copy's stack template is that one flat template.
 */
export function withEditedTemplate(dir: string, edit: (resources: Resources) => void, bundles: Record<string, Record<string, string>> = {}): ArtifactsFolder {
  const copy = mkdtempSync(join(tmpdir(), 'artifacts-edited-'));
  for (const entry of readdirSync(dir)) {
    if (entry.startsWith('asset.')) symlinkSync(join(dir, entry), join(copy, entry));
    else if (entry.endsWith('.json')) cpSync(join(dir, entry), join(copy, entry));
  }
  for (const [asset, files] of Object.entries(bundles)) {
    mkdirSync(join(copy, asset));
    for (const [name, content] of Object.entries(files)) writeFileSync(join(copy, asset, name), content);
  }
  const { resources, templateFiles } = readSynthesizedStack(copy);
  edit(resources);
  writeFileSync(templateFiles[0], JSON.stringify({ Resources: resources }));
  return temporary(copy);
}

/** The statements of the policies attached to a function's role. */
export function policyStatementsOf(resources: Resources, functionId: string): { Action: string | string[]; Resource: unknown }[] {
  const role = (resources[functionId].Properties?.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
  return Object.values(resources)
    .filter((resource) => resource.Type === 'AWS::IAM::Policy' && JSON.stringify(resource.Properties?.Roles).includes(`"${role}"`))
    .flatMap((policy) => (policy.Properties?.PolicyDocument as { Statement: { Action: string | string[]; Resource: unknown }[] }).Statement);
}
