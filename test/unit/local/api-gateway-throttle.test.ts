import { tokenBucket } from '../../../bin/local/aws/api-gateway';

/** API Gateway's throttle of a route, as the local API Gateway keeps it: a token bucket of `burstLimit` refilled at `rateLimit` a second. */
describe('Local API Gateway: a route throttle', () => {
  test('a full bucket lets the burst through at once, and the next request is throttled', () => {
    // Prepare
    const bucket = tokenBucket({ rateLimit: 2, burstLimit: 3 }, () => 0);

    // Act
    const taken = [bucket.take(), bucket.take(), bucket.take(), bucket.take()];

    // Assess
    expect(taken).toEqual([true, true, true, false]);
  });

  test('the bucket refills at the rate a second, and never beyond the burst', () => {
    // Prepare
    let now = 0;
    const bucket = tokenBucket({ rateLimit: 2, burstLimit: 3 }, () => now);
    while (bucket.take());

    // Act
    now = 500;
    const afterHalfASecond = [bucket.take(), bucket.take()];
    now = 60_000;
    let afterAMinute = 0;
    while (bucket.take()) afterAMinute += 1;

    // Assess
    expect(afterHalfASecond).toEqual([true, false]);
    expect(afterAMinute).toBe(3);
  });
});
