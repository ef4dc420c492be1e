/** A refusal the AWS service would answer with this error code (HTTP 400 unless said: the caller's fault). */
export class AwsError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}
