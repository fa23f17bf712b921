import { Library } from 'lucide-react';
import { AreaPage } from '@/components/area-page';
import { LinkButton } from '@/components/ui/link-button';

export const KnowledgeBasePage = () => (
  <AreaPage
    title="Knowledge base"
    description="Documents you add here become sources that your chats and agents can search and cite."
    icon={Library}
    emptyTitle="No documents yet"
    emptyBody="Uploaded files and notes are listed here with their size and when they were added. Answers that draw on them show which document each source came from."
    actions={
      <>
        <LinkButton to="/agents" variant="outline">
          See agents
        </LinkButton>
        <LinkButton to="/chat">Open chat</LinkButton>
      </>
    }
  />
);
