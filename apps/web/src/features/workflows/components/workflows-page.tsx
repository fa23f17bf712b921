import { Workflow } from 'lucide-react';
import { AreaPage } from '@/components/area-page';
import { LinkButton } from '@/components/ui/link-button';

export const WorkflowsPage = () => (
  <AreaPage
    title="Workflows"
    description="Chain prompts, tools and agents into steps that run on demand or on a schedule."
    icon={Workflow}
    emptyTitle="No workflows yet"
    emptyBody="Your workflows are listed here with their steps and the status of their latest run. Workflows are built from your prompts, tools and agents."
    actions={
      <>
        <LinkButton to="/tools" variant="outline">
          Set up tools
        </LinkButton>
        <LinkButton to="/prompts">Open the prompt library</LinkButton>
      </>
    }
  />
);
