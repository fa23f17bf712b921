import { SearchX } from 'lucide-react';
import { AreaPage } from '@/components/area-page';
import { LinkButton } from '@/components/ui/link-button';
import { useScenario } from './scenario-context';

export const ScenarioDetailPage = () => {
  const { activeScenarioId } = useScenario();
  return (
    <AreaPage
      title="Scenario"
      description="The steps of one scenario and the results of its runs."
      icon={SearchX}
      emptyTitle="Scenario not found"
      emptyBody={`There is no scenario “${activeScenarioId ?? ''}” in your workspace. Open your scenarios to pick one, or copy a recipe from the cookbook.`}
      actions={
        <>
          <LinkButton to="/scenarios-cookbook" variant="outline">
            Browse the cookbook
          </LinkButton>
          <LinkButton to="/scenarios">Go to scenarios</LinkButton>
        </>
      }
    />
  );
};
