import { Send } from 'lucide-react';
import { AreaPage } from '@/components/area-page';
import { LinkButton } from '@/components/ui/link-button';

export const ChatProxyPage = () => (
  <AreaPage
    title="Chat proxy"
    description="Send a single prompt to any provider through the server, without keeping a conversation."
    icon={Send}
    emptyTitle="No proxy requests yet"
    emptyBody="One-off answers appear here with the provider, model and time they took. The server calls the provider with your key, or with the default or system key when you have none."
    actions={
      <>
        <LinkButton to="/copy-api-keys" variant="outline">
          Manage API keys
        </LinkButton>
        <LinkButton to="/chat">Open chat</LinkButton>
      </>
    }
  />
);
