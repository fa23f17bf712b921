import { MailX } from 'lucide-react';
import { Link, useSearchParams } from 'react-router';
import { isValidRecipient } from '@chorus/shared/email';
import { Button } from '@/components/ui/button';
import { PageHeader } from '@/components/ui/page-header';
import { errorMessage } from '@/lib/api-error';
import { useUnsubscribe } from '../api/unsubscribe';

/**
 * `/unsubscribe?email=…&token=…` from the footer of welcome and notification mail. It asks for one click
 * before it records anything, so a mail scanner that opens every link unsubscribes nobody.
 */
export const UnsubscribePage = () => {
  const [params] = useSearchParams();
  const email = params.get('email')?.trim() ?? '';
  const token = params.get('token')?.trim() ?? '';
  const unsubscribe = useUnsubscribe();

  if (!isValidRecipient(email) || !token) {
    return (
      <div className="mx-auto max-w-xl">
        <PageHeader title="Unsubscribe" />
        <p role="alert" className="text-sm text-destructive">
          This unsubscribe link is incomplete. Please use the link from the e-mail exactly as it was
          sent.
        </p>
      </div>
    );
  }

  if (unsubscribe.isSuccess) {
    return (
      <div className="mx-auto max-w-xl">
        <PageHeader title="You are unsubscribed" />
        <p role="status" className="text-sm leading-relaxed">
          <strong>{unsubscribe.data.email}</strong> will no longer receive welcome or notification
          e-mails from Chorus. Password-reset e-mails you ask for still arrive.
        </p>
        <p className="mt-4 text-sm">
          <Link to="/" className="font-medium text-primary underline-offset-4 hover:underline">
            Back to Chorus
          </Link>
        </p>
      </div>
    );
  }

  return (
    <div className="mx-auto max-w-xl">
      <PageHeader
        title="Unsubscribe"
        description="Stop welcome and notification e-mails from Chorus."
      />
      <div className="flex flex-col gap-4 rounded-xl border p-5">
        <p className="flex items-center gap-2 text-sm">
          <MailX aria-hidden="true" className="size-4 text-muted-foreground" />
          <span>
            Unsubscribe <strong>{email}</strong>?
          </span>
        </p>
        {unsubscribe.isError ? (
          <p role="alert" className="text-sm text-destructive">
            {errorMessage(unsubscribe.error, 'That did not work. Please try again.')}
          </p>
        ) : null}
        <div>
          <Button
            disabled={unsubscribe.isPending}
            onClick={() => unsubscribe.mutate({ email, token })}
          >
            {unsubscribe.isPending ? 'Unsubscribing…' : 'Unsubscribe'}
          </Button>
        </div>
      </div>
    </div>
  );
};
