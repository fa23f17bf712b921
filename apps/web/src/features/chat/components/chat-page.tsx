import { MessageSquare, MessagesSquare } from 'lucide-react';
import { useParams } from 'react-router';
import { AreaPage } from '@/components/area-page';
import { LinkButton } from '@/components/ui/link-button';
import { ProviderPicker } from './provider-picker';

export const ChatPage = () => {
  const { chatId } = useParams();

  if (chatId) {
    return (
      <AreaPage
        title="Conversation"
        description="The messages of one conversation, oldest first."
        icon={MessagesSquare}
        emptyTitle="This conversation has no messages to show"
        emptyBody="Messages appear here in the order they were sent, each with the provider that answered. Go back to the chat to start a new conversation."
        actions={<LinkButton to="/chat">Back to chat</LinkButton>}
      />
    );
  }

  return (
    <AreaPage
      title="Chat"
      description="Talk to models from eight providers in one place, with your own keys or the workspace's."
      icon={MessageSquare}
      emptyTitle="No conversations yet"
      emptyBody="Your conversations are listed here, newest first, and each keeps its full history. Choose the provider to start with above, and add your key for it if you have one."
      actions={
        <LinkButton to="/copy-api-keys" variant="outline">
          Manage API keys
        </LinkButton>
      }
    >
      <div className="mb-6 rounded-xl border bg-card p-4">
        <ProviderPicker />
      </div>
    </AreaPage>
  );
};
