import { MessageSquareCode } from 'lucide-react';
import { AreaPage } from '@/components/area-page';
import { LinkButton } from '@/components/ui/link-button';

export const AgentEmbedChatPage = () => (
  <AreaPage
    title="Embedded agent chat"
    description="Preview how an agent answers when it is embedded in another website."
    icon={MessageSquareCode}
    emptyTitle="No agent to preview"
    emptyBody="The embedded chat of an agent opens here exactly as visitors of your site would see it. Choose an agent from your agents to preview it."
    actions={
      <>
        <LinkButton to="/agents">Go to agents</LinkButton>
      </>
    }
  />
);
