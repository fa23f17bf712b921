import { Columns3 } from 'lucide-react';
import { AreaPage } from '@/components/area-page';
import { LinkButton } from '@/components/ui/link-button';

export const ScenarioProxyPlusPage = () => (
  <AreaPage
    title="Scenario proxy plus"
    description="Run one scenario across several providers side by side and compare each step of their answers."
    icon={Columns3}
    emptyTitle="No scenario runs yet"
    emptyBody="Comparison runs appear here, one column per provider. Pick a scenario from your list to compare it."
    actions={
      <>
        <LinkButton to="/scenarios">Go to scenarios</LinkButton>
      </>
    }
  />
);
