import { Logger } from '@aws-lambda-powertools/logger';
import type { LogLevel } from '@aws-lambda-powertools/logger/types';
import { SERVICE_NAME } from './catalog';

/**
 * One structured logger per process; handlers append keys, never payloads or tokens. The stack
 * sets LOG_LEVEL (INFO in AWS); locally the default WARN keeps `npm start` and tests quiet.
 */
export const logger = new Logger({ serviceName: SERVICE_NAME, logLevel: (process.env.LOG_LEVEL ?? 'WARN') as LogLevel });
