import { Bot } from 'lucide-react';
import { AreaPage } from '@/components/area-page';
import { LinkButton } from '@/components/ui/link-button';

export const AgentsPage = () => (
  <AreaPage
    title="Agents"
    description="An agent combines a model, instructions, tools and a knowledge base into an assistant you can reuse and embed."
    icon={Bot}
    emptyTitle="No agents yet"
    emptyBody="Your agents are listed here with their model and the tools they may use. Prepare what an agent needs first: the tools it can call and the documents it can draw on."
    actions={
      <>
        <LinkButton to="/tools" variant="outline">
          Set up tools
        </LinkButton>
        <LinkButton to="/knowledge-base">Open the knowledge base</LinkButton>
      </>
    }
  />
);
