import { TransactionCanceledException, TransactionConflictException } from '@aws-sdk/client-dynamodb';
import { toErrorResponse } from '../../../shared/http/error-envelope';

const canceled = (...codes: string[]) =>
  new TransactionCanceledException({ message: 'Transaction cancelled', $metadata: {}, CancellationReasons: codes.map((Code) => ({ Code })) });

describe('Function: toErrorResponse', () => {
  test('a transaction conflict that outlasted its retries -> 503 with Retry-After, never a 500', () => {
    // Prepare
    const conflicts = [canceled('None', 'TransactionConflict'), new TransactionConflictException({ message: 'Transaction is ongoing for the item', $metadata: {} })];

    // Act
    const answers = conflicts.map((error) => toErrorResponse(error, 'http://docs'));

    // Assess
    for (const answer of answers) expect(answer).toMatchObject({ status: 503, headers: { 'retry-after': '1' }, envelope: { status: 503, type: 'Service Unavailable' } });
  });

  test('a transaction cancelled for another reason is not a conflict: 500', () => {
    expect(toErrorResponse(canceled('ConditionalCheckFailed', 'None'), 'http://docs').status).toBe(500);
  });
});
