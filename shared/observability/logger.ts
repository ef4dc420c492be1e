import { Logger } from '@aws-lambda-powertools/logger';
import type { LogLevel } from '@aws-lambda-powertools/logger/types';

/** One structured logger per process; handlers append keys, never payloads or tokens. */
export const logger = new Logger({ serviceName: 'payment-operations', logLevel: (process.env.LOG_LEVEL ?? 'WARN') as LogLevel });
