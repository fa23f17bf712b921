import { Boxes } from 'lucide-react';
import { AreaPage } from '@/components/area-page';
import { LinkButton } from '@/components/ui/link-button';

export const ScenariosPage = () => (
  <AreaPage
    title="Scenarios"
    description="Scenarios are multi-step prompt recipes you run against one or several providers."
    icon={Boxes}
    emptyTitle="No scenarios yet"
    emptyBody="Scenarios you create or copy from the cookbook are listed here with their steps and last run. The cookbook is the quickest place to find one to start from."
    actions={
      <>
        <LinkButton to="/scenarios-cookbook">Browse the cookbook</LinkButton>
      </>
    }
  />
);
