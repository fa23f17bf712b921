import type { ReactNode } from 'react';
import type { ProviderId } from '@chorus/shared/providers';
import { DraftForm, type DraftFormState } from '@/components/forms/draft-form';
import {
  KnowledgeBasePicker,
  OwnKeysNote,
  PersonaFields,
  type PersonaCopy,
  type PersonaDraft,
  type PersonaErrors,
} from './persona-fields';

/** What of a persona's `useEditorForm` the shared part of its form reads and writes. */
type PersonaFormState = Pick<
  DraftFormState<PersonaDraft, PersonaErrors>,
  'formRef' | 'submit' | 'failure'
> & {
  draft: PersonaDraft;
  errors: PersonaErrors;
  set<K extends keyof PersonaDraft>(field: K, value: PersonaDraft[K]): void;
  saving: boolean;
};

/**
 * A custom AI's or an agent's form: the persona fields, what only that kind has (`children`),
 * its knowledge bases, whose keys it runs on, then the buttons.
 */
export const PersonaForm = ({
  form,
  copy,
  onProviderChange,
  onCancel,
  submitLabel,
  knowledge,
  note,
  children,
}: {
  form: PersonaFormState;
  copy: PersonaCopy;
  onProviderChange: (provider: ProviderId) => void;
  onCancel: () => void;
  submitLabel: string;
  knowledge: { limit: number; description: ReactNode };
  /** Said after whose keys it runs on. */
  note?: string;
  children: ReactNode;
}) => {
  const { draft, errors, set } = form;
  return (
    <DraftForm form={form} onCancel={onCancel} submitLabel={submitLabel}>
      <PersonaFields
        draft={draft}
        errors={errors}
        set={set}
        onProviderChange={onProviderChange}
        copy={copy}
      />
      {children}
      <KnowledgeBasePicker
        selected={draft.knowledgeBaseIds}
        error={errors.knowledgeBaseIds}
        onChange={(ids) => set('knowledgeBaseIds', ids)}
        limit={knowledge.limit}
        noun={copy.noun}
        description={knowledge.description}
      />
      <OwnKeysNote provider={draft.provider} more={note} />
    </DraftForm>
  );
};
