import { Sparkles } from 'lucide-react';
import { AreaPage } from '@/components/area-page';
import { LinkButton } from '@/components/ui/link-button';

export const CustomAisPage = () => (
  <AreaPage
    title="Custom AIs"
    description="A custom AI is a saved model set-up: provider, model, system instructions, temperature and token limit."
    icon={Sparkles}
    emptyTitle="No custom AIs yet"
    emptyBody="Custom AIs you save are listed here and can be picked in chat like any model. They use your provider keys, so add those first."
    actions={
      <>
        <LinkButton to="/copy-api-keys" variant="outline">
          Manage API keys
        </LinkButton>
        <LinkButton to="/chat">Open chat</LinkButton>
      </>
    }
  />
);
