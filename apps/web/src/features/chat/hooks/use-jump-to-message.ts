import { useEffect, useMemo } from 'react';
import { useLocation } from 'react-router';
import type { FocusRow } from '@/components/chat/use-focus-row';
import type { useMessages } from '@/lib/queries/messages';

/** Older pages loaded at most while looking for a message (200 each: 10,000 messages). */
export const maxPagesToFind = 50;

/**
 * `looking`: older pages are loading; `missing`: the message is not in the conversation (or
 * further back than the pages looked through); `failed`: an older page did not load.
 */
export type JumpState = 'none' | 'looking' | 'found' | 'missing' | 'failed';

/**
 * Opens a conversation at one of its messages (`/chat/{id}?message={messageId}`, from a search
 * hit): loads older pages, newest first, until the message is among them (at most
 * `maxPagesToFind`), then answers the row for the list to scroll to and highlight. Each
 * navigation to it (a new location key) brings it into view again.
 */
export const useJumpToMessage = ({
  messageId,
  rows,
  history,
}: {
  messageId: string | null;
  rows: { id: string }[];
  history: ReturnType<typeof useMessages>;
}): { state: JumpState; focusRow: FocusRow | undefined } => {
  const { key } = useLocation();
  const present = messageId !== null && rows.some((row) => row.id === messageId);
  const pages = history.data?.pages.length ?? 0;
  const canLoad =
    messageId !== null &&
    !present &&
    history.isSuccess &&
    history.hasNextPage &&
    !history.isFetchNextPageError &&
    pages < maxPagesToFind;
  const { isFetching, fetchNextPage } = history;

  useEffect(() => {
    // Never restarts a page already on its way (the list may have asked for it too).
    if (canLoad && !isFetching) void fetchNextPage({ cancelRefetch: false });
  }, [canLoad, isFetching, fetchNextPage]);

  const focusRow = useMemo(
    () => (present && messageId ? { id: messageId, key } : undefined),
    [present, messageId, key],
  );

  let state: JumpState = 'none';
  if (messageId !== null) {
    if (present) state = 'found';
    else if (history.isFetchNextPageError) state = 'failed';
    else if (history.isPending || canLoad) state = 'looking';
    else if (history.isSuccess) state = 'missing';
  }
  return { state, focusRow };
};
