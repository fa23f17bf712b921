import { Radar } from 'lucide-react';
import { AreaPage } from '@/components/area-page';
import { LinkButton } from '@/components/ui/link-button';

export const TrendsProxyPage = () => (
  <AreaPage
    title="Trends proxy"
    description="Ask the providers that can search the web, Gemini and Perplexity, about current topics and compare what they find."
    icon={Radar}
    emptyTitle="No trend queries yet"
    emptyBody="Each query you send is listed here with the answers and the sources each provider cited. Web search needs a Gemini or Perplexity key."
    actions={
      <>
        <LinkButton to="/copy-api-keys" variant="outline">
          Manage API keys
        </LinkButton>
        <LinkButton to="/trends">See trends</LinkButton>
      </>
    }
  />
);
