import { describe, expect, it } from 'vitest';
import { errorCodes } from '@chorus/shared/error-codes';
import { everyErrorMessage } from '@chorus/shared/error-examples';
import { sentenceProblems } from '@chorus/shared/sentences';
import { ApiError } from '@/lib/api-error';
import { chatFailureText, describeReplyFailure, describeSendFailure } from './describe-chat-error';

const rendered = everyErrorMessage();

/** The statuses a send can fail with: 0 is the API client's word for no answer at all. */
const statuses = [0, 400, 401, 403, 404, 409, 413, 415, 416, 429, 500, 502, 503, 504];

const faultsOf = (texts: { label: string; text: string }[]) =>
  texts.flatMap(({ label, text }) => {
    const problems = sentenceProblems(text);
    return problems.length ? [`${label}: ${JSON.stringify(text)} ${problems.join(', ')}`] : [];
  });

describe("the chat's failure texts", () => {
  it('are whole sentences', () => {
    expect(
      faultsOf(Object.entries(chatFailureText).map(([label, text]) => ({ label, text }))),
    ).toEqual([]);
  });

  it('cover every code of the catalogue', () => {
    expect(new Set(rendered.map((m) => m.code))).toEqual(new Set(errorCodes));
  });

  it("punctuate a refused send, whatever the code, status and server's words", () => {
    const banners = rendered.flatMap(({ code, variant, text }) =>
      statuses.flatMap((status) =>
        [undefined, 12].map((retryAfterSeconds) => ({
          label: `${code} (${variant}) ${status}${retryAfterSeconds ? ' retry 12 s' : ''}`,
          text: describeSendFailure(new ApiError(status, text, { code, retryAfterSeconds }), true)
            .reason,
        })),
      ),
    );
    const wordless = errorCodes.flatMap((code) =>
      statuses.map((status) => ({
        label: `${code} ${status} without words`,
        text: describeSendFailure(new ApiError(status, '', { code }), true).reason,
      })),
    );
    expect(faultsOf([...banners, ...wordless])).toEqual([]);
  });

  it('punctuate a failed or cut-off reply, and say what arrived is saved only when it did', () => {
    const replies = rendered.flatMap(({ code, variant, text }) =>
      [true, false].flatMap((arrived) =>
        [true, false].map((failed) => {
          const reply = describeReplyFailure({ reason: text, arrived, failed });
          expect(reply.includes(chatFailureText.arrivedIsSaved), `${code} ${reply}`).toBe(arrived);
          return {
            label: `${code} (${variant}) ${arrived ? 'after some text' : 'before any'}`,
            text: reply,
          };
        }),
      ),
    );
    const wordless = [true, false].flatMap((arrived) =>
      [true, false].map((failed) => ({
        label: `no reason, ${arrived ? 'after some text' : 'before any'}`,
        text: describeReplyFailure({ reason: null, arrived, failed }),
      })),
    );
    expect(faultsOf([...replies, ...wordless])).toEqual([]);
  });
});
