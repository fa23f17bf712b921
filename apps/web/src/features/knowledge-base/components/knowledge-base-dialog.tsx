import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { knowledgeLimits, type KnowledgeBase } from '@chorus/shared/api/knowledge';
import { embeddingModels, embeddingProviderIds, providers } from '@chorus/shared/providers';
import { Dialog } from '@/components/ui/dialog';
import { FormActions } from '@/components/ui/form-actions';
import { FormField } from '@/components/ui/form-field';
import { Label } from '@/components/ui/label';
import { NativeSelect } from '@/components/ui/native-select';
import { Textarea } from '@/components/ui/textarea';
import { errorMessage } from '@/lib/api-error';
import { useKeyAvailability } from '@/lib/queries/key-availability';
import { toast } from '@/lib/toast';
import { useCreateKnowledgeBase, useUpdateKnowledgeBase } from '../api/knowledge-bases';
import {
  choiceOf,
  choiceValue,
  defaultChoice,
  embeddingKeyNames,
  hasKey,
  noEmbedding,
  parseChoice,
} from './embedding-choice';

const linkClass = 'text-primary underline underline-offset-4';

const EmbeddingHint = ({
  id,
  value,
  initial,
  anyKey,
  keyForChoice,
  vectorsAvailable,
}: {
  id: string;
  value: string;
  initial: string | null;
  anyKey: boolean;
  keyForChoice: boolean;
  vectorsAvailable: boolean;
}) => {
  const choice = parseChoice(value);
  let text;
  if (!vectorsAvailable) {
    text =
      'This server’s database has no vector support, so every knowledge base is searched by its words alone, whatever you pick.';
  } else if (!choice) {
    text = anyKey ? (
      'Searched by its words alone (full text). Pick a model to search by meaning as well.'
    ) : (
      <>
        Searched by its words alone (full text). Add an {embeddingKeyNames} key on the{' '}
        <Link to="/copy-api-keys" className={linkClass}>
          API keys page
        </Link>{' '}
        to search by meaning as well.
      </>
    );
  } else if (!keyForChoice) {
    text = (
      <>
        You have no {providers[choice.provider].name} key: documents cannot be embedded until you
        add one on the{' '}
        <Link to="/copy-api-keys" className={linkClass}>
          API keys page
        </Link>
        .
      </>
    );
  } else {
    const from = providers[choice.provider].keyOptional
      ? `embeddings from this instance’s ${providers[choice.provider].name} server`
      : `${providers[choice.provider].name} embeddings, with the key your calls use`;
    text = `Searched by meaning (${from}) and by its words, both at once.`;
  }
  return (
    <div id={id} className="grid gap-1 text-xs text-muted-foreground">
      <p>{text}</p>
      {initial !== null && value !== initial ? (
        <p className="text-amber-700 dark:text-amber-400">
          Changing the model embeds every document again. Search keeps using the current vectors
          until that is done.
        </p>
      ) : null}
    </div>
  );
};

const BaseForm = ({
  base,
  vectorsAvailable,
  onDone,
  onCancel,
}: {
  base: KnowledgeBase | null;
  vectorsAvailable: boolean;
  onDone: (saved: KnowledgeBase) => void;
  onCancel: () => void;
}) => {
  const [name, setName] = useState(base?.name ?? '');
  const [description, setDescription] = useState(base?.description ?? '');
  // Null until the person picks: a new base starts on the first provider they have a key for,
  // which is known only once the keys have loaded.
  const [picked, setPicked] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const availability = useKeyAvailability().data;
  const create = useCreateKnowledgeBase();
  const update = useUpdateKnowledgeBase();
  const id = useId();
  const initial = base ? choiceValue(choiceOf(base)) : null;
  const value = picked ?? initial ?? choiceValue(defaultChoice(availability));
  const choice = parseChoice(value);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    const embedding = {
      embedding_provider: choice?.provider ?? null,
      embedding_model: choice?.model ?? null,
    };
    try {
      if (base) {
        const saved = await update.mutateAsync({
          id: base.id,
          patch: { name, description, ...(value !== initial ? embedding : {}) },
        });
        toast.success(`“${saved.name}” saved`);
        onDone(saved);
      } else {
        const saved = await create.mutateAsync({ name, description, ...embedding });
        toast.success(`“${saved.name}” created`);
        onDone(saved);
      }
    } catch (cause) {
      setError(errorMessage(cause));
    }
  };

  return (
    <form className="grid gap-4" onSubmit={(event) => void submit(event)}>
      <FormField
        label="Name"
        required
        maxLength={knowledgeLimits.name}
        value={name}
        onChange={(event) => setName(event.target.value)}
        placeholder="Team handbook"
      />
      <div className="grid gap-2">
        <Label htmlFor={`${id}-description`}>Description</Label>
        <Textarea
          id={`${id}-description`}
          rows={3}
          maxLength={knowledgeLimits.description}
          value={description}
          onChange={(event) => setDescription(event.target.value)}
          placeholder="What it holds, for you and for whoever you share a chat with."
        />
      </div>
      <div className="grid gap-2">
        <Label htmlFor={`${id}-embedding`}>Embedding model</Label>
        <NativeSelect
          id={`${id}-embedding`}
          aria-describedby={`${id}-embedding-hint`}
          value={value}
          onChange={(event) => setPicked(event.target.value)}
        >
          <option value={noEmbedding}>None — full text only</option>
          {embeddingProviderIds.map((provider) => (
            <optgroup
              key={provider}
              label={`${providers[provider].name}${hasKey(availability, provider) ? '' : ' (no key)'}`}
            >
              {(embeddingModels[provider] ?? []).map((model) => (
                <option key={model.value} value={choiceValue({ provider, model: model.value })}>
                  {model.label}
                </option>
              ))}
            </optgroup>
          ))}
        </NativeSelect>
        <EmbeddingHint
          id={`${id}-embedding-hint`}
          value={value}
          initial={initial}
          anyKey={defaultChoice(availability) !== null}
          keyForChoice={choice ? hasKey(availability, choice.provider) : true}
          vectorsAvailable={vectorsAvailable}
        />
      </div>
      <FormActions
        error={error}
        onCancel={onCancel}
        submitLabel={base ? 'Save' : 'Create knowledge base'}
        submitDisabled={create.isPending || update.isPending}
      />
    </form>
  );
};

/** Creates a knowledge base, or edits one (its name, description and embedding model). */
export const KnowledgeBaseDialog = ({
  open,
  base,
  vectorsAvailable,
  onClose,
  onSaved,
}: {
  open: boolean;
  base: KnowledgeBase | null;
  vectorsAvailable: boolean;
  onClose: () => void;
  onSaved: (base: KnowledgeBase) => void;
}) => (
  <Dialog
    open={open}
    title={base ? `Edit “${base.name}”` : 'New knowledge base'}
    onClose={onClose}
    className="max-w-xl"
  >
    {open ? (
      <BaseForm
        key={base?.id ?? 'new'}
        base={base}
        vectorsAvailable={vectorsAvailable}
        onDone={onSaved}
        onCancel={onClose}
      />
    ) : null}
  </Dialog>
);
