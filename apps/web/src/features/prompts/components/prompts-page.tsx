import { ScrollText } from 'lucide-react';
import { AreaPage } from '@/components/area-page';
import { LinkButton } from '@/components/ui/link-button';

export const PromptsPage = () => (
  <AreaPage
    title="Prompt library"
    description="Keep the prompts you reuse and run them in chats, scheduled runs and test runs."
    icon={ScrollText}
    emptyTitle="No prompts saved yet"
    emptyBody="Saved prompts are listed here with their title and when you last used them. Browse the scenarios cookbook for proven prompt recipes to start from."
    actions={
      <>
        <LinkButton to="/scenarios-cookbook" variant="outline">
          Browse the cookbook
        </LinkButton>
        <LinkButton to="/chat">Open chat</LinkButton>
      </>
    }
  />
);
