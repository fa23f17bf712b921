import { useId, useState, type FormEvent } from 'react';
import { contactFieldLimits } from '@chorus/shared/email';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { errorMessage } from '@/lib/api-error';
import { toast } from '@/lib/toast';
import { useSendContactMessage } from '../api/send-contact-message';

type Errors = Partial<Record<'name' | 'email' | 'message', string>>;

const empty = { name: '', email: '', message: '' };

// The request's schema (and zod with it, about 27 KB of gzip) is downloaded when someone starts
// to fill in the form, not with the help center's first paint.
const loadSchema = () =>
  import('@chorus/shared/api/email').then((module) => module.contactRequestSchema);

/**
 * Writes to the support team; the answer comes by e-mail to the address given here. The help
 * page shows it inside its "Contact support" section (contact-section.tsx).
 */
export const ContactForm = () => {
  const [values, setValues] = useState(empty);
  const [errors, setErrors] = useState<Errors>({});
  const send = useSendContactMessage();
  const messageId = useId();

  const set = (field: keyof typeof empty) => (value: string) =>
    setValues((v) => ({ ...v, [field]: value }));

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const schema = await loadSchema().catch(() => null);
    if (!schema) {
      toast.error('Your message could not be sent: check your connection, then try again.');
      return;
    }
    const parsed = schema.safeParse(values);
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
    send.mutate(parsed.data, {
      onSuccess: () => {
        toast.success('Thanks! Your message is on its way to our support team.');
        setValues(empty);
      },
      onError: (error) =>
        toast.error(`Your message could not be sent: ${errorMessage(error, 'please try again.')}`),
    });
  };

  return (
    <form
      noValidate
      onSubmit={(event) => void onSubmit(event)}
      onFocus={() => void loadSchema().catch(() => undefined)}
      className="grid gap-4"
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField
          label="Name"
          name="name"
          autoComplete="name"
          maxLength={contactFieldLimits.name}
          value={values.name}
          onChange={(e) => set('name')(e.target.value)}
          error={errors.name}
        />
        <FormField
          label="E-mail"
          name="email"
          type="email"
          autoComplete="email"
          maxLength={contactFieldLimits.email}
          value={values.email}
          onChange={(e) => set('email')(e.target.value)}
          error={errors.email}
        />
      </div>
      <div className="grid gap-2">
        <Label htmlFor={messageId}>Message</Label>
        <Textarea
          id={messageId}
          name="message"
          rows={5}
          maxLength={contactFieldLimits.message}
          value={values.message}
          onChange={(e) => set('message')(e.target.value)}
          aria-invalid={errors.message ? true : undefined}
          aria-describedby={errors.message ? `${messageId}-error` : undefined}
        />
        {errors.message ? (
          <p id={`${messageId}-error`} className="text-sm text-destructive">
            {errors.message}
          </p>
        ) : null}
      </div>
      <div>
        <Button type="submit" disabled={send.isPending}>
          {send.isPending ? 'Sending…' : 'Send message'}
        </Button>
      </div>
    </form>
  );
};
