import { TrendingUp } from 'lucide-react';
import { AreaPage } from '@/components/area-page';
import { LinkButton } from '@/components/ui/link-button';

export const TrendsPage = () => (
  <AreaPage
    title="Trends"
    description="Which scenarios and providers people reach for most, and how that changes week to week."
    icon={TrendingUp}
    emptyTitle="No usage to chart yet"
    emptyBody="Trends are counted from real use of this workspace: how often each scenario is opened and each provider answers. They appear here once people start chatting and running scenarios."
    actions={
      <>
        <LinkButton to="/scenarios-cookbook" variant="outline">
          Browse the cookbook
        </LinkButton>
        <LinkButton to="/chat">Start a chat</LinkButton>
      </>
    }
  />
);
