import { CalendarClock } from 'lucide-react';
import { AreaPage } from '@/components/area-page';
import { LinkButton } from '@/components/ui/link-button';

export const ScheduleRunsPage = () => (
  <AreaPage
    title="Schedule runs"
    description="Run a prompt on a schedule and receive an email when each run starts and completes."
    icon={CalendarClock}
    emptyTitle="No schedules yet"
    emptyBody="Each schedule is listed here with its prompt, provider, next run time and the result of its last run. A schedule runs a prompt from your library, so save one there first."
    actions={
      <>
        <LinkButton to="/prompts">Open the prompt library</LinkButton>
      </>
    }
  />
);
