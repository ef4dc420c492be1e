import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAccessPolicies } from '../../../bin/local/aws/iam';
import { localResources } from '../../../bin/local/aws/resources';
import { readSynthesizedStack, type CfnTemplate } from '../../../bin/local/aws/template';

/** Artifact mode reads a stack with nested stacks as CloudFormation deploys it: one resource map, each nested resource's id after its stack's. */

const TABLE_ARN = 'arn:aws:dynamodb:local:000000000000:table/t';

/** A nested template whose function reads the table its parent passes, if `grant`, and names its own stack. */
const routeTemplate = (grant: boolean): CfnTemplate => ({
  Parameters: { TableArn: { Type: 'String' }, TableName: { Type: 'String' }, LogLevel: { Type: 'String', Default: 'INFO' } },
  Resources: {
    Role: { Type: 'AWS::IAM::Role' },
    ...(grant
      ? {
          Policy: {
            Type: 'AWS::IAM::Policy',
            Properties: { Roles: [{ Ref: 'Role' }], PolicyDocument: { Statement: [{ Effect: 'Allow', Action: 'dynamodb:GetItem', Resource: { Ref: 'TableArn' } }] } },
          },
        }
      : {}),
    Function: {
      Type: 'AWS::Lambda::Function',
      Properties: {
        Role: { 'Fn::GetAtt': ['Role', 'Arn'] },
        Environment: { Variables: { TABLE_NAME: { Ref: 'TableName' }, LOG_LEVEL: { Ref: 'LogLevel' }, STACK: { 'Fn::Sub': '${AWS::StackName}/${Role}' } } },
      },
    },
  },
  Outputs: { FunctionName: { Value: { Ref: 'Function' } } },
});

const nestedStack = (template: string, parameters: Record<string, unknown>) => ({
  Type: 'AWS::CloudFormation::Stack',
  Properties: { Parameters: parameters, TemplateURL: 'https://s3.local/template.json' },
  Metadata: { 'aws:asset:path': template },
});

const passed = { TableArn: { 'Fn::GetAtt': ['Table', 'Arn'] }, TableName: { Ref: 'Table' } };

/** A cloud assembly of stack `Parent` with `resources` and the nested templates by file name. */
function assembly(resources: Record<string, unknown>, nested: Record<string, CfnTemplate>): string {
  const dir = mkdtempSync(join(tmpdir(), 'nested-assembly-'));
  const artifacts = { Parent: { type: 'aws:cloudformation:stack', environment: 'aws://unknown-account/unknown-region', properties: { templateFile: 'Parent.template.json' } } };
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ artifacts }));
  writeFileSync(join(dir, 'Parent.template.json'), JSON.stringify({ Resources: resources }));
  for (const [file, template] of Object.entries(nested)) writeFileSync(join(dir, file), JSON.stringify(template));
  return dir;
}

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
const read = (resources: Record<string, unknown>, nested: Record<string, CfnTemplate>) => {
  dirs.push(assembly(resources, nested));
  return readSynthesizedStack(dirs.at(-1)!);
};

describe('Function: readSynthesizedStack with nested stacks', () => {
  const stack = read(
    {
      Table: { Type: 'AWS::DynamoDB::Table' },
      Reads: nestedStack('Reads.nested.template.json', passed),
      NoGrant: nestedStack('NoGrant.nested.template.json', passed),
      Alarm: { Type: 'AWS::CloudWatch::Alarm', Properties: { Dimensions: [{ Name: 'FunctionName', Value: { 'Fn::GetAtt': ['Reads', 'Outputs.FunctionName'] } }] } },
    },
    { 'Reads.nested.template.json': routeTemplate(true), 'NoGrant.nested.template.json': routeTemplate(false) },
  );
  const resources = localResources(stack, { tableName: 't', edgeUrl: 'http://edge', apiUrl: () => 'http://api', streamLabel: () => 'none' });

  test("a nested stack's resources join the parent's, each id after its stack's; its template file is listed after the parent's", () => {
    expect(Object.keys(stack.resources).sort()).toEqual(['Alarm', 'NoGrantFunction', 'NoGrantRole', 'ReadsFunction', 'ReadsPolicy', 'ReadsRole', 'Table']);
    expect(stack.templateFiles.map((file) => file.split('/').at(-1))).toEqual(['Parent.template.json', 'Reads.nested.template.json', 'NoGrant.nested.template.json']);
  });

  test('parameters stand for what the parent passes, else their default; the parent reads an output as its value; AWS::StackName is the nested stack\'s', () => {
    expect(resources.resolve(stack.resources.ReadsFunction.Properties!.Environment)).toEqual({
      Variables: { TABLE_NAME: 't', LOG_LEVEL: 'INFO', STACK: 'Parent-Reads/Parent-ReadsRole' },
    });
    expect(resources.resolve(stack.resources.Alarm.Properties!.Dimensions)).toEqual([{ Name: 'FunctionName', Value: 'Parent-ReadsFunction' }]);
  });

  test("IAM stays per role: a nested stack's function has its own role's grants only, though both nested stacks name their resources alike", () => {
    const policies = createAccessPolicies(stack, resources.resolve, resources.arnOf);
    const getItem = (role: string) => policies.decide({ caller: { role }, action: 'dynamodb:GetItem', resource: TABLE_ARN });
    expect(getItem('ReadsRole')).toEqual({ allowed: true });
    expect(getItem('NoGrantRole')).toEqual({ allowed: false, reason: 'no identity-based policy allows the dynamodb:GetItem action' });
  });
});

describe('Function: readSynthesizedStack refuses what CloudFormation refuses', () => {
  const template = { 'Reads.nested.template.json': routeTemplate(true) };

  test('a parameter without a default that the parent does not pass', () => {
    expect(() => read({ Table: { Type: 'AWS::DynamoDB::Table' }, Reads: nestedStack('Reads.nested.template.json', { TableArn: passed.TableArn }) }, template)).toThrow(
      'Nested stack Reads: its parent passes no value for parameter TableName, which has no default',
    );
  });

  test('a value for a parameter the nested template does not declare', () => {
    expect(() => read({ Table: { Type: 'AWS::DynamoDB::Table' }, Reads: nestedStack('Reads.nested.template.json', { ...passed, Extra: 'x' }) }, template)).toThrow(
      'Nested stack Reads: its parent passes Extra, which its template does not declare',
    );
  });

  test('an output the nested stack does not have', () => {
    const alarm = { Type: 'AWS::CloudWatch::Alarm', Properties: { AlarmName: { 'Fn::GetAtt': ['Reads', 'Outputs.RoleName'] } } };
    expect(() => read({ Table: { Type: 'AWS::DynamoDB::Table' }, Reads: nestedStack('Reads.nested.template.json', passed), Alarm: alarm }, template)).toThrow(
      'Stack Parent: nested stack Reads has no Outputs.RoleName',
    );
  });

  test('a nested resource whose id, after its stack\'s, is that of another resource', () => {
    expect(() => read({ Table: { Type: 'AWS::DynamoDB::Table' }, Reads: nestedStack('Reads.nested.template.json', passed), ReadsRole: { Type: 'AWS::IAM::Role' } }, template)).toThrow(
      'Stack Parent: two resources would be ReadsRole once its nested stacks are read in',
    );
  });

  test('a nested stack without its template in the assembly', () => {
    const { Metadata: _metadata, ...withoutAsset } = nestedStack('Reads.nested.template.json', passed);
    expect(() => read({ Table: { Type: 'AWS::DynamoDB::Table' }, Reads: withoutAsset }, template)).toThrow(/Nested stack Reads names no template file \(aws:asset:path\)/);
  });
});
