import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { AWS_LIMITS } from '../../../shared/aws-limits';
import { createDocumentClient } from '../../../shared/db/client';
import { ensureTable } from '../../../bin/local/dynamodb-local';
import { startStreamMapping, type MappingDefinition } from '../../../bin/local/aws/event-sources';
import { createAccessPolicies } from '../../../bin/local/aws/iam';
import { eventPattern } from '../../../bin/local/aws/patterns';
import { LocalQueue, type QueueSettings } from '../../../bin/local/aws/sqs';
import type { SynthesizedStack } from '../../../bin/local/aws/template';
import type { FunctionPool, InvokeOutcome } from '../../../bin/local/aws/workers';
import { waitUntil } from '../../support/wait';

/** Artifact mode's stand-ins for IAM, event patterns, SQS and stream event source mappings, each on its own. */

const queue = (name: string, settings: Partial<QueueSettings> = {}) =>
  new LocalQueue({ name, arn: `arn:aws:sqs:local:000000000000:${name}`, url: `http://edge/000000000000/${name}`, visibilityTimeoutSeconds: 30, delaySeconds: 0, maximumMessageBytes: AWS_LIMITS.sqs.messageBytes, retentionSeconds: 345_600, ...settings });

describe('Function: createAccessPolicies', () => {
  const TABLE = 'arn:aws:dynamodb:local:000000000000:table/t';
  const stack: SynthesizedStack = {
    dir: '',
    stackName: 'S',
    region: 'local',
    account: '000000000000',
    templateFiles: [],
    resources: {
      Role: { Type: 'AWS::IAM::Role' },
      Policy: {
        Type: 'AWS::IAM::Policy',
        Properties: {
          Roles: [{ Ref: 'Role' }],
          PolicyDocument: {
            Statement: [
              { Effect: 'Allow', Action: ['dynamodb:Get*', 'dynamodb:Query'], Resource: [TABLE, `${TABLE}/index/*`] },
              { Effect: 'Deny', Action: 'dynamodb:Query', Resource: `${TABLE}/index/SECRET` },
              { Effect: 'Allow', Action: 'dynamodb:UpdateItem', Resource: TABLE, Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['SESSION#*'] } } },
            ],
          },
        },
      },
      QueuePolicy: {
        Type: 'AWS::SQS::QueuePolicy',
        Properties: {
          Queues: ['http://edge/000000000000/q'],
          PolicyDocument: {
            Statement: [
              {
                Effect: 'Allow',
                Principal: { Service: 'events.amazonaws.com' },
                Action: 'sqs:SendMessage',
                Resource: 'arn:aws:sqs:local:000000000000:q',
                Condition: { ArnEquals: { 'aws:SourceArn': 'arn:aws:events:local:000000000000:rule/bus/r' } },
              },
            ],
          },
        },
      },
    },
  };
  const policies = createAccessPolicies(stack, (value) => value, (role) => `arn:aws:iam::000000000000:role/${role}`);
  const role = { role: 'Role' };

  test('an Allow with wildcards grants, on the table and its indexes', () => {
    expect(policies.decide({ caller: role, action: 'dynamodb:GetItem', resource: TABLE })).toEqual({ allowed: true });
    expect(policies.decide({ caller: role, action: 'dynamodb:Query', resource: `${TABLE}/index/GSI1` })).toEqual({ allowed: true });
  });

  test('no Allow is an implicit deny that names the action; an explicit Deny wins over an Allow', () => {
    expect(policies.decide({ caller: role, action: 'dynamodb:PutItem', resource: TABLE })).toEqual({ allowed: false, reason: 'no identity-based policy allows the dynamodb:PutItem action' });
    expect(policies.decide({ caller: role, action: 'dynamodb:Query', resource: `${TABLE}/index/SECRET` })).toMatchObject({ allowed: false });
    expect(policies.decide({ caller: role, action: 'dynamodb:GetItem', resource: 'arn:aws:dynamodb:local:000000000000:table/other' })).toMatchObject({ allowed: false });
  });

  test('a condition on the item keys (ForAllValues, dynamodb:LeadingKeys): every key must match one of its patterns', () => {
    const update = (keys: string[]) => policies.decide({ caller: { role: 'Role' }, action: 'dynamodb:UpdateItem', resource: TABLE, context: { 'dynamodb:LeadingKeys': keys } });
    expect(update(['SESSION#abc']).allowed).toBe(true);
    expect(update(['USER#usr_1'])).toEqual({ allowed: false, reason: 'no identity-based policy allows the dynamodb:UpdateItem action' });
    expect(update(['SESSION#abc', 'USER#usr_1']).allowed).toBe(false);
  });

  test('a queue policy lets EventBridge send for its rule only', () => {
    const send = (rule: string) =>
      policies.decide(
        { caller: { service: 'events.amazonaws.com' }, action: 'sqs:SendMessage', resource: 'arn:aws:sqs:local:000000000000:q', context: { 'aws:SourceArn': rule } },
        ['arn:aws:sqs:local:000000000000:q', 'http://edge/000000000000/q'],
      );
    expect(send('arn:aws:events:local:000000000000:rule/bus/r')).toEqual({ allowed: true });
    expect(send('arn:aws:events:local:000000000000:rule/bus/other')).toMatchObject({ allowed: false });
  });
});

describe('Function: eventPattern', () => {
  test('literals, prefix, exists and anything-but, nested, any value of a list', () => {
    const matches = eventPattern({ source: ['payment-operations'], detail: { type: [{ prefix: 'transactions.' }], resend: [{ exists: false }], mode: [{ 'anything-but': 'live' }] } });
    expect(matches({ source: 'payment-operations', detail: { type: 'transactions.payment.paid', mode: 'test' } })).toBe(true);
    expect(matches({ source: 'payment-operations', detail: { type: 'other', mode: 'test' } })).toBe(false);
    expect(matches({ source: 'payment-operations', detail: { type: 'transactions.x', mode: 'live' } })).toBe(false);
    expect(matches({ source: 'payment-operations', detail: { type: 'transactions.x', mode: 'test', resend: 'x' } })).toBe(false);
    expect(eventPattern('{"tags":["a"]}')({ tags: ['b', 'a'] })).toBe(true);
  });

  test('a filter it does not imitate is refused when the pattern is read', () => {
    expect(() => eventPattern({ amount: [{ numeric: ['>', 0] }] })).toThrow('"numeric"');
  });
});

describe('Class: LocalQueue', () => {
  test('a message received maxReceiveCount times moves to the dead-letter queue on its next receive', async () => {
    // Prepare
    const deadLetters = queue('dlq');
    const source = queue('q', { redrive: { deadLetterQueue: deadLetters, maxReceiveCount: 2 } });
    source.send('poison');
    // Act: received twice, never deleted, visible again at once
    for (let receive = 1; receive <= 2; receive++) {
      const [message] = await source.receive({ max: 1, visibilityTimeoutSeconds: 0 });
      expect(message.Attributes.ApproximateReceiveCount).toBe(String(receive));
    }
    // Assess
    expect(await source.receive({ max: 1 })).toEqual([]);
    expect((await deadLetters.receive({ max: 1 }))[0].Body).toBe('poison');
  });

  test('SQS\'s bounds: DelaySeconds up to 900, a received message hidden at most 12 hours from its receive, message size', async () => {
    const q = queue('bounds');
    expect(() => q.send('x', AWS_LIMITS.sqs.maxDelaySeconds + 1)).toThrow(expect.objectContaining({ code: 'InvalidParameterValue' }));
    expect(() => q.send('x'.repeat(AWS_LIMITS.sqs.messageBytes + 1))).toThrow(expect.objectContaining({ code: 'InvalidParameterValue' }));
    q.send('x');
    const [message] = await q.receive({ max: 1 });
    expect(() => q.changeVisibility(message.ReceiptHandle, AWS_LIMITS.sqs.maxVisibilityTimeoutSeconds + 1)).toThrow(expect.objectContaining({ code: 'InvalidParameterValue' }));
    q.changeVisibility(message.ReceiptHandle, AWS_LIMITS.sqs.maxVisibilityTimeoutSeconds - 1);
    expect(await q.receive({ max: 1 })).toEqual([]);
  });

  test('fair queue: a group with messages in flight waits behind a group with none, whatever the send order', async () => {
    const q = queue('fair');
    for (let i = 0; i < 30; i++) q.send(`noisy-${i}`, 0, 'org_noisy#test');
    const held = await q.receive({ max: 10 });
    expect(held.every((message) => message.Body.startsWith('noisy-'))).toBe(true);
    q.send('quiet', 0, 'org_quiet#test');
    const [next] = await q.receive({ max: 1 });
    expect(next.Body).toBe('quiet');
    // Without groups the queue keeps its send order.
    const plain = queue('plain');
    ['a', 'b', 'c'].forEach((body) => plain.send(body));
    expect((await plain.receive({ max: 3 })).map((message) => message.Body)).toEqual(['a', 'b', 'c']);
  });

  test('a delayed message is invisible until its delay has passed; a long poll returns when it arrives', async () => {
    const q = queue('delays');
    const poll = q.receive({ max: 1, waitSeconds: 2 });
    setTimeout(() => q.send('late'), 100);
    expect((await poll)[0].Body).toBe('late');
    q.send('delayed', 1);
    expect(await q.receive({ max: 1 })).toEqual([]);
    expect((await q.receive({ max: 1, waitSeconds: 2 }))[0].Body).toBe('delayed');
  });
});

describe('Function: startStreamMapping', () => {
  const db = createDocumentClient({ endpoint: process.env.DYNAMODB_ENDPOINT });
  afterAll(() => db.destroy());

  /** A function that fails every batch holding the poison record, and records what it was given. */
  function fakeFunction() {
    const handled: string[] = [];
    const refusals = { count: 0 };
    const pool = {
      spec: { arn: 'arn:aws:lambda:local:000000000000:function:f', name: 'f' },
      async invoke(event: unknown): Promise<InvokeOutcome> {
        const keys = (event as { Records: { dynamodb: { Keys: { PK: { S: string } } } }[] }).Records.map((record) => record.dynamodb.Keys.PK.S);
        if (keys.includes('poison')) {
          refusals.count++;
          return { ok: false, errorType: 'Error', errorMessage: 'refused' };
        }
        handled.push(...keys);
        return { ok: true, result: { batchItemFailures: [] } };
      },
    };
    return { handled, refusals, pool: pool as unknown as FunctionPool };
  }

  async function run(maximumRetryAttempts: number) {
    const tableName = `stand-ins-${randomUUID()}`;
    await ensureTable(process.env.DYNAMODB_ENDPOINT!, tableName);
    const failures = queue('failures');
    const fn = fakeFunction();
    const settings: MappingDefinition['settings'] = {
      name: 'm',
      batchSize: 10,
      filters: [],
      reportBatchItemFailures: true,
      maximumRetryAttempts,
      bisectBatchOnFunctionError: true,
      maximumRecordAgeSeconds: -1,
      onFailure: failures,
    };
    for (const pk of ['a', 'poison', 'b', 'c']) await db.send(new PutCommand({ TableName: tableName, Item: { PK: pk, SK: 'x' } }));
    const mapping = startStreamMapping({
      settings,
      pool: fn.pool,
      endpoint: process.env.DYNAMODB_ENDPOINT!,
      tableName,
      region: 'local',
      eventSourceArn: `arn:aws:dynamodb:local:000000000000:table/${tableName}/stream/x`,
      checkpoints: { load: async () => undefined, save: async () => {} },
    });
    return { ...fn, failures, mapping, tableName };
  }

  test('with a retry limit, a failing record is bisected out and described to the on-failure destination; the shard moves on', async () => {
    const { handled, failures, mapping, tableName } = await run(2);
    try {
      await db.send(new PutCommand({ TableName: tableName, Item: { PK: 'later', SK: 'x' } }));
      await waitUntil(() => handled.includes('later'), 'the record written after the failing one');
      expect(handled).toEqual(['a', 'b', 'c', 'later']);
      const [failure] = await failures.receive({ max: 1 });
      expect(JSON.parse(failure.Body)).toMatchObject({ requestContext: { condition: 'RetryAttemptsExhausted' }, DDBStreamBatchInfo: { batchSize: 1 } });
    } finally {
      await mapping.stop();
    }
  }, 30_000);

  test('without a retry limit the shard waits on the failing record, as in AWS: nothing after it is handled', async () => {
    const { handled, refusals, mapping } = await run(-1);
    try {
      // The whole batch, its first half and the poison record alone three times: the shard is
      // stuck on it, however long the machine took to get there.
      await waitUntil(() => handled.includes('a') && refusals.count >= 5, 'the shard to retry the failing record alone');
      expect(handled).toEqual(['a']);
    } finally {
      await mapping.stop();
    }
  }, 30_000);
});
