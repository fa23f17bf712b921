import { Wrench } from 'lucide-react';
import { AreaPage } from '@/components/area-page';
import { LinkButton } from '@/components/ui/link-button';

export const ToolsPage = () => (
  <AreaPage
    title="Tools"
    description="Tools are functions an agent may call while it answers, such as web search or a request to your own endpoint."
    icon={Wrench}
    emptyTitle="No tools yet"
    emptyBody="Tools you define are listed here with their name, description and input schema. Agents and workflows can then use them."
    actions={
      <>
        <LinkButton to="/agents" variant="outline">
          See agents
        </LinkButton>
        <LinkButton to="/workflows">See workflows</LinkButton>
      </>
    }
  />
);
