import { lazy, Suspense, useState } from 'react';
import type { Conversation } from '@chorus/shared/api/conversations';
import { messages } from '@chorus/shared/messages';
import { MenuOnIntent } from '@/components/ui/menu-on-intent';
import { ConversationMenuButton } from './conversation-menu-button';

// The menu (Radix) and the share dialog load when a person reaches for them, not with the list.
const ConversationMenu = lazy(() =>
  import('./conversation-menu').then((m) => ({ default: m.ConversationMenu })),
);
const ShareDialog = lazy(() => import('./share-dialog').then((m) => ({ default: m.ShareDialog })));

/** The "…" menu of a conversation: pin, export, share. */
export const ConversationActions = ({
  conversation,
  onShare,
  className,
}: {
  conversation: Conversation;
  onShare: () => void;
  className?: string;
}) => (
  <MenuOnIntent
    button={(handlers) => (
      <ConversationMenuButton
        conversationTitle={conversation.title || messages.chat.defaultTitle}
        className={className}
        {...handlers}
      />
    )}
    menu={(start) => (
      <ConversationMenu
        conversation={conversation}
        onShare={onShare}
        className={className}
        {...start}
      />
    )}
  />
);

type Sharing = {
  conversation: Pick<Conversation, 'id' | 'title'>;
  open: boolean;
  /** Counts the openings: each starts afresh, asking the server whether a link is active. */
  opening: number;
};

/**
 * The share dialog's state for whoever offers Share: `share(conversation)` opens it. The dialog
 * stays mounted once opened, so that closing it returns the focus where it was.
 */
export const useShareDialog = () => {
  const [sharing, setSharing] = useState<Sharing | null>(null);
  const share = (conversation: Pick<Conversation, 'id' | 'title'>) =>
    setSharing((last) => ({ conversation, open: true, opening: (last?.opening ?? 0) + 1 }));
  const dialog = sharing ? (
    <Suspense fallback={null}>
      <ShareDialog
        key={sharing.opening}
        conversation={sharing.conversation}
        open={sharing.open}
        onClose={() => setSharing({ ...sharing, open: false })}
      />
    </Suspense>
  ) : null;
  return { share, dialog };
};
