import { FlaskConical } from 'lucide-react';
import { AreaPage } from '@/components/area-page';
import { LinkButton } from '@/components/ui/link-button';

export const TestRunnerPage = () => (
  <AreaPage
    title="Test runner"
    description="Send one prompt to several providers and models at once and compare the answers side by side."
    icon={FlaskConical}
    emptyTitle="No test runs yet"
    emptyBody="Finished and running test runs are listed here with their prompt, the models compared and their timings; you get an email when a run finishes. Runs use your provider keys."
    actions={
      <>
        <LinkButton to="/copy-api-keys" variant="outline">
          Manage API keys
        </LinkButton>
        <LinkButton to="/prompts">Open the prompt library</LinkButton>
      </>
    }
  />
);
