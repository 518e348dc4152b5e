/**
 * The answer to a CloudFormation custom resource request: a PUT of the
 * response document to the request's presigned `ResponseURL` ("Custom
 * resource response objects", AWS CloudFormation User Guide). CloudFormation
 * waits for it (an hour by default), so every request is answered, a failure
 * with its reason.
 */
import { sleep } from '../ports/pool';

/** The request fields an answer echoes. */
export interface AnsweredRequest {
  readonly ResponseURL: string;
  readonly StackId: string;
  readonly RequestId: string;
  readonly LogicalResourceId: string;
}

export interface Answer {
  readonly Status: 'SUCCESS' | 'FAILED';
  readonly Reason: string;
  readonly PhysicalResourceId: string;
}

/** The response document is at most 4096 bytes: the reason is cut well below. */
const MAX_REASON = 1024;
const ATTEMPTS = 3;

export async function answerCloudFormation(request: AnsweredRequest, answer: Answer): Promise<void> {
  const body = JSON.stringify({
    Status: answer.Status,
    Reason: answer.Reason.length > MAX_REASON ? `${answer.Reason.slice(0, MAX_REASON - 3)}...` : answer.Reason,
    PhysicalResourceId: answer.PhysicalResourceId,
    StackId: request.StackId,
    RequestId: request.RequestId,
    LogicalResourceId: request.LogicalResourceId,
  });
  for (let attempt = 1; ; attempt++) {
    try {
      // The presigned URL is signed for no content type: an empty one, not fetch's text/plain.
      const response = await fetch(request.ResponseURL, { method: 'PUT', body, headers: { 'content-type': '' } });
      if (response.ok) return;
      throw new Error(`the response URL answered ${response.status} ${await response.text()}`);
    } catch (e) {
      if (attempt >= ATTEMPTS) throw new Error(`unum sweeper: could not answer CloudFormation (${String(e)})`, { cause: e });
      await sleep(250 * 2 ** (attempt - 1));
    }
  }
}
