import { BookOpen } from 'lucide-react';
import { AreaPage } from '@/components/area-page';
import { LinkButton } from '@/components/ui/link-button';

export const ScenariosCookbookPage = () => (
  <AreaPage
    title="Scenarios cookbook"
    description="Ready-made prompt recipes for common jobs — research, writing, code review, comparison across models — that you can copy into your workspace."
    icon={BookOpen}
    emptyTitle="No recipes published yet"
    emptyBody="Published recipes are listed here by category, with the providers they work best with. Once you have an account you can build your own scenarios and run them against any provider."
    actions={
      <>
        <LinkButton to="/help" variant="outline">
          Read the help center
        </LinkButton>
        <LinkButton to="/scenarios">Go to your scenarios</LinkButton>
      </>
    }
  />
);
