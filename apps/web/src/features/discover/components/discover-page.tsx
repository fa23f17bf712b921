import { Compass } from 'lucide-react';
import { AreaPage } from '@/components/area-page';
import { LinkButton } from '@/components/ui/link-button';

export const DiscoverPage = () => (
  <AreaPage
    title="Discover"
    description="Prompts, scenarios and agents that people in this workspace choose to share."
    icon={Compass}
    emptyTitle="Nothing has been shared yet"
    emptyBody="Shared items appear here with their author's public name, so you can try them or copy them into your own workspace. Set a public name on your profile before you share."
    actions={
      <>
        <LinkButton to="/scenarios-cookbook" variant="outline">
          Browse the cookbook
        </LinkButton>
        <LinkButton to="/auth">Sign in to share</LinkButton>
      </>
    }
  />
);
