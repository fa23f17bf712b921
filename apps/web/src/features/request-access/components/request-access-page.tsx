import { UserPlus } from 'lucide-react';
import { AreaPage } from '@/components/area-page';
import { LinkButton } from '@/components/ui/link-button';

export const RequestAccessPage = () => (
  <AreaPage
    title="Request access"
    description="How to get into a Chorus workspace."
    icon={UserPlus}
    emptyTitle="Create your own account"
    emptyBody="This workspace accepts sign-ups: create an account with your email and a password and you are in. Ask your administrator if you need a role or a plan with higher limits; they manage both in the back office."
    actions={
      <>
        <LinkButton to="/help" variant="outline">
          Read the help center
        </LinkButton>
        <LinkButton to="/auth?mode=sign-up">Sign up</LinkButton>
      </>
    }
  />
);
