/**
 * One process of flash-sale payers (`bench/flash-sale.ts` starts several, so the payers'
 * own event loop is never what limits the service): reads its share of the sale as JSON on
 * stdin, `concurrency` payers at once each take the next checkout until none is left, and
 * writes what they got as JSON on stdout. A payer retries as a client should, with its own
 * Idempotency-Key: when told to (503 with Retry-After, also API Gateway's answer past its 30 s),
 * and while its first request is still in flight (409 without a `reason`), so that a payment
 * paid behind a timed-out request is answered as paid, not as a full link.
 */
import { randomUUID } from 'node:crypto';
import { percentile } from './api';

export interface PayersShare {
  baseUrl: string;
  /** One checkout a payer makes: the link and the key of its organization. */
  checkouts: { linkId: string; token: string }[];
  concurrency: number;
}

export interface PayersResult {
  /** Per answer (`paid`, `canceled`, or the HTTP status of a refusal): how many. */
  answers: Record<string, number>;
  /** When the first request left and the last answer came, epoch ms. */
  firstMs: number;
  lastMs: number;
  /** The slowest and the median request (a retry is a request of its own). */
  slowestMs: number;
  p50Ms: number;
}

/** How long a payer waits for its first request to answer before it gives up on it: past API Gateway's 30 s. */
const IN_FLIGHT_BOUND_MS = 40_000;

/** `times`: each request's time to its answer, retries apart (what the function timeout bounds). */
async function pay(share: PayersShare, checkout: PayersShare['checkouts'][number], times: number[]): Promise<string> {
  const idempotencyKey = randomUUID();
  const firstMs = Date.now();
  for (let retries = 0; ; retries++) {
    const start = Date.now();
    const answer = await fetch(`${share.baseUrl}/v1/test_helpers/payment_links/${checkout.linkId}/checkout`, {
      method: 'POST',
      headers: { authorization: `Bearer ${checkout.token}`, 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
      body: '{"outcome":"paid"}',
    });
    const body = (await answer.json()) as { status?: string | number; reason?: string };
    times.push(Date.now() - start);
    // In flight: until its first request has answered, which API Gateway bounds at 30 s.
    const inFlight = answer.status === 409 && body.reason === undefined && Date.now() - firstMs < IN_FLIGHT_BOUND_MS;
    if (inFlight || (answer.status === 503 && retries < 5)) {
      await new Promise((resolve) => setTimeout(resolve, Number(answer.headers.get('retry-after') ?? 1) * 1000));
      continue;
    }
    // 201 is a payment (paid, or canceled when its link filled up meanwhile); else the refusal's status.
    return answer.status === 201 ? String(body.status) : String(answer.status);
  }
}

export async function runShare(share: PayersShare): Promise<PayersResult> {
  const answers: Record<string, number> = {};
  const times: number[] = [];
  let next = 0;
  const firstMs = Date.now();
  await Promise.all(
    Array.from({ length: share.concurrency }, async () => {
      while (next < share.checkouts.length) {
        const answer = await pay(share, share.checkouts[next++], times);
        answers[answer] = (answers[answer] ?? 0) + 1;
      }
    }),
  );
  times.sort((a, b) => a - b);
  return { answers, firstMs, lastMs: Date.now(), slowestMs: times.at(-1) ?? 0, p50Ms: percentile(times, 0.5) ?? 0 };
}

if (require.main === module) {
  let input = '';
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (chunk) => (input += chunk));
  process.stdin.on('end', () => {
    runShare(JSON.parse(input) as PayersShare)
      .then((result) => process.stdout.write(JSON.stringify(result)))
      .catch((error) => {
        console.error(error);
        process.exit(1);
      });
  });
}
