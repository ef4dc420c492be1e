import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { findJob } from '../../shared/jobs';
import { createServices } from '../../shared/services';
import { UsageError, type OpsCommand } from './cli';

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
  ];
}
