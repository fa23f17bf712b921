import { useState, type FormEvent } from 'react';
import { customAiLimits, type CustomAi } from '@chorus/shared/api/custom-ais';
import { Dialog } from '@/components/ui/dialog';
import { FormActions } from '@/components/ui/form-actions';
import { FormField } from '@/components/ui/form-field';
import { errorMessage } from '@/lib/api-error';
import { toast } from '@/lib/toast';
import { useShareCustomAi } from '../api/custom-ais';

/** What sharing means, said before anyone shares. */
export const shareTerms =
  'Once an admin publishes it, everyone on this instance can find it in Discover and chat with it, on their own keys and quota, never yours. Its instructions become visible to everyone. Its knowledge bases stay yours: they are never shown to others, nor searched in their chats.';

const ShareForm = ({ ai, onDone }: { ai: CustomAi; onDone: () => void }) => {
  const share = useShareCustomAi();
  const [category, setCategory] = useState(ai.category ?? '');
  const [error, setError] = useState<string | undefined>();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!category.trim()) {
      setError('Pick a category, so people can find it in Discover.');
      return;
    }
    setError(undefined);
    share.mutate(
      { id: ai.id, share: { category: category.trim() } },
      {
        onSuccess: () => {
          toast.success(`“${ai.name}” is waiting for review`);
          onDone();
        },
      },
    );
  };

  return (
    <form className="grid gap-4" onSubmit={submit} noValidate>
      <p className="text-sm text-muted-foreground">{shareTerms}</p>
      <FormField
        label="Category"
        value={category}
        maxLength={customAiLimits.category}
        placeholder="Writing, Code, Learning…"
        hint="Where it is listed in Discover."
        error={error}
        onChange={(event) => setCategory(event.target.value)}
      />
      <FormActions
        error={share.isError ? errorMessage(share.error) : null}
        onCancel={onDone}
        submitLabel={share.isPending ? 'Sending…' : 'Ask for review'}
        submitDisabled={share.isPending}
      />
    </form>
  );
};

/** "Share to Discover": the owner asks the curators to publish a custom AI. */
export const ShareCustomAiDialog = ({
  ai,
  onClose,
}: {
  ai: CustomAi | null;
  onClose: () => void;
}) => (
  <Dialog open={ai !== null} title={`Share “${ai?.name ?? ''}” to Discover`} onClose={onClose}>
    {ai ? <ShareForm key={ai.id} ai={ai} onDone={onClose} /> : null}
  </Dialog>
);
