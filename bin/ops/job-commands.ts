import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { pendingCreditsOf } from '../../shared/db/balance';
import { findJob } from '../../shared/jobs';
import { createServices } from '../../shared/services';
import { modeOption, UsageError, type OpsCommand } from './cli';

export function jobCommands(db: () => DynamoDBDocumentClient, tableName: string): OpsCommand[] {
  return [
    {
      words: 'job run',
      usage: 'NAME',
      options: {},
      positionals: ['NAME'],
      run: async (_values, [name]) => {
        const { jobs } = createServices(db(), tableName);
        const job = findJob(jobs, name);
        if (!job) throw new UsageError(`Unknown job ${name}; jobs: ${jobs.map((j) => j.name).join(', ') || 'none'}`);
        return { name: job.name, processed: await job.run(new Date()) };
      },
    },
    {
      words: 'balance roll',
      usage: '--org ORG --mode test|live   (credits the stream could not roll in: each once, then held refunds)',
      options: { org: { type: 'string', required: true }, mode: { type: 'string', required: true } },
      run: async (values) => {
        const pending = await pendingCreditsOf(db(), tableName, String(values.org), modeOption(values.mode));
        const unrolled = await createServices(db(), tableName).rollCredits(pending);
        return { pending: pending.length, rolled: pending.length - unrolled.length, unrolled: unrolled.length };
      },
    },
  ];
}
