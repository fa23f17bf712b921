import { FileJson, FileText, Pin, PinOff, Share2 } from 'lucide-react';
import { useRef, useState } from 'react';
import type { Conversation } from '@chorus/shared/api/conversations';
import { messages } from '@chorus/shared/messages';
import { exportMessages, pinMessages } from '@chorus/shared/share-messages';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import type { MenuStart } from '@/components/ui/menu-on-intent';
import { downloadConversation } from '@/lib/queries/export-conversation';
import { usePinConversation } from '@/lib/queries/pin-conversation';
import { ConversationMenuButton } from './conversation-menu-button';

export type ConversationMenuProps = MenuStart & {
  conversation: Conversation;
  /** Opens the share dialog, which its owner keeps (a menu closes when an item is chosen). */
  onShare: () => void;
  className?: string;
};

/** Pin or unpin, export as Markdown or JSON, and share one conversation. */
export const ConversationMenu = ({
  conversation,
  onShare,
  defaultOpen,
  autoFocus,
  className,
}: ConversationMenuProps) => {
  const pin = usePinConversation();
  const [trigger, setTrigger] = useState<HTMLButtonElement | null>(null);
  const shareNext = useRef(false);
  const pinned = Boolean(conversation.pinned_at);
  const title = conversation.title || messages.chat.defaultTitle;
  return (
    <DropdownMenu defaultOpen={defaultOpen}>
      <DropdownMenuTrigger asChild>
        <ConversationMenuButton
          ref={setTrigger}
          conversationTitle={title}
          autoFocus={autoFocus}
          className={className}
        />
      </DropdownMenuTrigger>
      <DropdownMenuContent
        align="end"
        // In the phone's drawer (a modal <dialog>) the menu must be inside it to be usable.
        container={trigger?.closest('dialog') ?? undefined}
        onCloseAutoFocus={(event) => {
          if (!shareNext.current) return;
          // The share dialog opens once the focus is back on this button, so that closing the
          // dialog returns it here.
          shareNext.current = false;
          event.preventDefault();
          trigger?.focus();
          onShare();
        }}
      >
        <DropdownMenuItem onSelect={() => pin.mutate({ conversation, pinned: !pinned })}>
          {pinned ? <PinOff aria-hidden="true" /> : <Pin aria-hidden="true" />}
          {pinned ? pinMessages.unpin : pinMessages.pin}
        </DropdownMenuItem>
        <DropdownMenuSeparator />
        <DropdownMenuItem onSelect={() => void downloadConversation(conversation, 'markdown')}>
          <FileText aria-hidden="true" />
          {exportMessages.markdown}
        </DropdownMenuItem>
        <DropdownMenuItem onSelect={() => void downloadConversation(conversation, 'json')}>
          <FileJson aria-hidden="true" />
          {exportMessages.json}
        </DropdownMenuItem>
        <DropdownMenuSeparator />
        <DropdownMenuItem
          onSelect={() => {
            shareNext.current = true;
          }}
        >
          <Share2 aria-hidden="true" />
          {pinMessages.share}
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
};
