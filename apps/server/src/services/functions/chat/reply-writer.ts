import type { SQL } from 'drizzle-orm';
import { chatMessages } from '@chorus/shared/messages';
import type { ModelCall } from '../../../ai/model-call.ts';
import type { MessagesRepository } from '../../../db/repositories/messages.ts';
import {
  SAVE_WAIT_MS,
  settledWithin,
  type PendingWrites,
} from '../../../lifecycle/pending-writes.ts';

/** How often the partial reply is written while it streams (what survives a crash). */
const FLUSH_INTERVAL_MS = 1_000;

type Patch = Parameters<MessagesRepository['update']>[1];

/**
 * Writes the reply as it grows, one write at a time, at most once per interval; the last write
 * (finish, stop or failure) always lands after every partial one. Nothing is written before
 * `after` (the turn's own insert of the reply row) has settled, nor at all if it failed.
 *
 * A partial write that fails is skipped: the next one carries the whole text. The last write is
 * retried through `saves` until the database takes it (issue 13: a reply the user saw is never
 * lost to an outage), or until a stopping process gives up on it.
 */
export const replyWriter = (opts: {
  repo: MessagesRepository;
  id: string;
  after: Promise<unknown>;
  saves: PendingWrites;
  onError: (e: unknown) => void;
  /** Selected with the last write: the realtime notice that the reply is complete. */
  finalNotice: SQL;
  /** What the reply holds already: an agent run going on after an approval appends to it. */
  initialText?: string;
}) => {
  let text = opts.initialText ?? '';
  // An agent's tool calls (issue 18), written with the text once they change.
  let toolCalls: unknown[] | undefined;
  const stored = opts.after.then(
    () => true,
    () => false,
  );
  let chain: Promise<unknown> = stored;
  let timer: NodeJS.Timeout | undefined;
  let finished: Promise<boolean> | undefined;
  let partialFailed = false;
  const flush = () => {
    chain = chain.then(async () => {
      if (!(await stored)) return;
      const calls = toolCalls && { tool_calls: toolCalls };
      await opts.repo.update(opts.id, { content: text, ...calls }).catch((err: unknown) => {
        // Once per reply: during an outage every interval would fail the same way.
        if (!partialFailed) opts.onError(err);
        partialFailed = true;
      });
    });
  };
  return {
    append(delta: string) {
      // After the last write nothing more is written: a late part would overwrite it.
      if (finished) return;
      text += delta;
      timer ??= setTimeout(() => {
        timer = undefined;
        flush();
      }, FLUSH_INTERVAL_MS);
    },
    get text() {
      return text;
    },
    /** The reply's tool calls changed: written with the next partial write. */
    setToolCalls(calls: unknown[]) {
      if (finished) return;
      toolCalls = structuredClone(calls);
      timer ??= setTimeout(() => {
        timer = undefined;
        flush();
      }, FLUSH_INTERVAL_MS);
    },
    /**
     * The first outcome wins: finish, stop and failure can each report the end. Resolves true
     * once the reply is stored (or there was no row to store it in), false if it was given up.
     */
    finish(patch: Patch): Promise<boolean> {
      if (finished) return finished;
      clearTimeout(timer);
      timer = undefined;
      finished = chain.then(async () => {
        if (!(await stored)) return true;
        return opts.saves.run('reply', () =>
          opts.repo.update(
            opts.id,
            { content: text, ...(toolCalls && { tool_calls: toolCalls }), ...patch },
            opts.finalNotice,
          ),
        );
      });
      return finished;
    },
  };
};

export type ReplyWriter = ReturnType<typeof replyWriter>;

/**
 * The end of a streamed reply, shared by a chat turn and an agent run going on after approval:
 * `end` (called by finish, stop or failure, the first one wins) writes the reply's last state;
 * `stored` waits for that write as long as a reply may, and tells whether it was kept.
 */
export const replyEnd = (writer: ReplyWriter, before: (patch: Patch) => Patch = (p) => p) => {
  let reportEnd!: (saving: Promise<boolean>) => void;
  // Wrapped: a promise resolved with a promise would wait for it.
  const reported = new Promise<{ saving: Promise<boolean> }>(
    (resolve) => (reportEnd = (saving) => resolve({ saving })),
  );
  return {
    end(patch: Patch): Promise<void> {
      const saving = writer.finish(before(patch));
      reportEnd(saving);
      return settledWithin(saving, SAVE_WAIT_MS).then(() => undefined);
    },
    /**
     * Past its moment the answer ends and the save goes on, unless the server is stopping: then
     * the client waits to hear whether its reply was kept.
     */
    async stored(closing: () => boolean): Promise<boolean> {
      const { saving } = await reported;
      return (await settledWithin(saving, SAVE_WAIT_MS)) ?? (closing() ? await saving : true);
    },
  };
};

/** An error named as the AI SDK names a call that ran out of its time. */
const timedOut = () => Object.assign(new Error('timed out'), { name: 'TimeoutError' });

/** Why a reply stopped, as stored with it: a stop the user asked for needs no reason. */
export const stopReason = (
  by: 'caller' | 'timeout',
  restarting: boolean,
  call: Pick<ModelCall, 'describe'>,
): Pick<Patch, 'error_code' | 'error_message'> =>
  restarting
    ? { error_code: 'chat:server_restarting', error_message: chatMessages.serverRestarting }
    : by === 'timeout'
      ? { error_code: 'provider:timeout', error_message: call.describe(timedOut()) }
      : {};
