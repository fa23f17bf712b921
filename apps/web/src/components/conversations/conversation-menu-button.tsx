import { Ellipsis } from 'lucide-react';
import { pinMessages } from '@chorus/shared/share-messages';
import { Button, type ButtonProps } from '@/components/ui/button';
import { cn } from '@/lib/utils';

/** The "…" of a conversation, drawn the same before and after its menu's code has loaded. */
export const ConversationMenuButton = ({
  conversationTitle,
  className,
  ...props
}: ButtonProps & { conversationTitle: string }) => (
  <Button
    variant="ghost"
    size="icon"
    className={cn('size-7', className)}
    aria-label={pinMessages.moreActions(conversationTitle)}
    title="More actions"
    {...props}
  >
    <Ellipsis aria-hidden="true" />
  </Button>
);
