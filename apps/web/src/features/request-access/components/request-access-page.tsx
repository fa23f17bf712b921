import { MailCheck, UserPlus } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { createAccessRequestSchema } from '@chorus/shared/api/access-requests';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormField } from '@/components/ui/form-field';
import { Label } from '@/components/ui/label';
import { LinkButton } from '@/components/ui/link-button';
import { Spinner } from '@/components/ui/spinner';
import { Textarea } from '@/components/ui/textarea';
import { errorMessage } from '@/lib/api-error';
import { useCreateAccessRequest } from '../api/create-access-request';
import { useSignupMode } from '@/lib/queries/signup-mode';

type Errors = { email?: string; reason?: string };

/** `/request-access`: an e-mail and a reason; an admin approves and an invitation is e-mailed. */
export const RequestAccessPage = () => {
  const mode = useSignupMode();
  const create = useCreateAccessRequest();
  const [email, setEmail] = useState('');
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [sentTo, setSentTo] = useState<string | null>(null);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = createAccessRequestSchema.safeParse({ email, reason });
    if (!parsed.success) {
      const found: Errors = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as keyof Errors;
        found[field] ??= issue.message;
      }
      setErrors(found);
      return;
    }
    setErrors({});
    create.mutate(parsed.data, {
      onSuccess: (answer) => {
        setSentTo(parsed.data.email);
        toast.success('Request sent', { description: answer.message });
      },
      onError: (error) =>
        toast.error('Your request was not sent', { description: errorMessage(error) }),
    });
  };

  const notice = mode.data?.signup_notice;
  const open = mode.data?.signup_mode === 'open';

  return (
    <div className="mx-auto w-full max-w-lg px-4 py-12 sm:py-16">
      <Card>
        <CardHeader>
          {sentTo ? (
            <MailCheck aria-hidden="true" className="mb-2 size-8 text-muted-foreground" />
          ) : (
            <UserPlus aria-hidden="true" className="mb-2 size-8 text-muted-foreground" />
          )}
          <CardTitle asHeading="h1" className="text-xl">
            {sentTo ? 'Request received' : 'Request access'}
          </CardTitle>
          <CardDescription>
            {sentTo
              ? `If your request is approved, an invitation link is e-mailed to ${sentTo}. The link is valid for 7 days.`
              : 'Tell us who you are and why you need access. An administrator reviews every request.'}
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          {notice ? (
            <p className="rounded-md border bg-muted/40 p-3 text-sm whitespace-pre-wrap">
              {notice}
            </p>
          ) : null}
          {open && !sentTo ? (
            <p className="text-sm text-muted-foreground">
              This workspace also accepts sign-ups directly.{' '}
              <LinkButton to="/auth?mode=sign-up" variant="link" className="h-auto px-0">
                Create an account
              </LinkButton>
            </p>
          ) : null}
          {sentTo ? (
            <div className="flex flex-wrap gap-3">
              <LinkButton to="/">Back to the home page</LinkButton>
              <Button variant="outline" onClick={() => setSentTo(null)}>
                Send another request
              </Button>
            </div>
          ) : (
            <form noValidate onSubmit={submit} className="grid gap-4">
              <FormField
                label="Email"
                type="email"
                name="email"
                autoComplete="email"
                required
                value={email}
                error={errors.email}
                onChange={(event) => setEmail(event.target.value)}
              />
              <div className="grid gap-2">
                <Label htmlFor="request-reason">Why do you need access?</Label>
                <Textarea
                  id="request-reason"
                  name="reason"
                  rows={4}
                  maxLength={1000}
                  required
                  value={reason}
                  aria-invalid={errors.reason ? true : undefined}
                  aria-describedby={errors.reason ? 'request-reason-error' : undefined}
                  onChange={(event) => setReason(event.target.value)}
                />
                {errors.reason ? (
                  <p id="request-reason-error" className="text-sm text-destructive">
                    {errors.reason}
                  </p>
                ) : null}
              </div>
              <Button type="submit" disabled={create.isPending} className="w-full">
                {create.isPending ? (
                  <Spinner
                    className="size-4 border-primary-foreground/40 border-t-primary-foreground"
                    label="Sending your request"
                  />
                ) : null}
                Request access
              </Button>
            </form>
          )}
        </CardContent>
      </Card>
    </div>
  );
};
