import { Link } from 'react-router';
import {
  createTestSetSchema,
  subjectKinds,
  testRunLimits,
  updateTestSetSchema,
  type Subject,
  type SubjectKind,
  type TestSet,
} from '@chorus/shared/api/test-runs';
import type { ErrorCode } from '@chorus/shared/error-codes';
import { DraftForm, EditorDialog, useEditorForm } from '@/components/forms/draft-form';
import { Field, TextAreaField, TextField } from '@/components/forms/field';
import { NativeSelect } from '@/components/ui/native-select';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-error';
import {
  subjectKindLabels,
  subjectKindPages,
  takesInput,
  useSubjectChoices,
} from '../api/subjects';
import { useCreateTestSet, useUpdateTestSet } from '../api/test-sets';
import { linkClass } from './run-format';

type SetDraft = {
  name: string;
  description: string;
  kind: SubjectKind;
  subjectId: string;
  notify: boolean;
};

type SetErrors = Partial<Record<'name' | 'description' | 'subjectId', string>>;

type SetBody = { name: string; description: string; subject?: Subject; notify: boolean };

const fieldOfErrorCode: Partial<Record<ErrorCode, keyof SetErrors>> = {
  'test_sets:subject_not_found': 'subjectId',
};

const draftOf = (set: TestSet | null): SetDraft => ({
  name: set?.name ?? '',
  description: set?.description ?? '',
  kind: set?.subject.kind ?? 'prompt',
  // A deleted subject is picked again.
  subjectId: set && set.subject_name !== null ? set.subject.id : '',
  notify: set?.notify ?? true,
});

/**
 * The body for the draft, checked against the contract first. An edit sends the subject only
 * when it changed, so a set whose subject was deleted can still be renamed.
 */
const checkOf =
  (set: TestSet | null) =>
  (draft: SetDraft): { body: SetBody | null; errors: SetErrors | null } => {
    const subjectChanged =
      !set || set.subject.kind !== draft.kind || set.subject.id !== draft.subjectId;
    const fields = {
      name: draft.name,
      description: draft.description,
      notify: draft.notify,
      ...(subjectChanged && (draft.subjectId !== '' || !set)
        ? { subject: { kind: draft.kind, id: draft.subjectId } }
        : {}),
    };
    const parsed = set
      ? updateTestSetSchema.safeParse(fields)
      : createTestSetSchema
          .pick({ name: true, description: true, subject: true, notify: true })
          .safeParse(fields);
    if (parsed.success) {
      const { name = '', description = '', notify = true, subject } = parsed.data;
      return { body: { name, description, notify, ...(subject ? { subject } : {}) }, errors: null };
    }
    const errors: SetErrors = {};
    for (const issue of parsed.error.issues) {
      const path = String(issue.path[0]);
      const field = path === 'subject' ? 'subjectId' : path === 'description' ? path : 'name';
      errors[field] ??= issue.message;
    }
    return { body: null, errors };
  };

/** What kind of thing the set tests, then which one of the user's. */
export const SubjectFields = ({
  kind,
  subjectId,
  error,
  deletedNote,
  onChange,
}: {
  kind: SubjectKind;
  subjectId: string;
  error: string | undefined;
  /** Said when the set's subject was deleted and another must be picked. */
  deletedNote: boolean;
  onChange: (next: { kind: SubjectKind; subjectId: string }) => void;
}) => {
  const list = useSubjectChoices(kind);
  const label = `${subjectKindLabels[kind]} to test`;
  const page = subjectKindPages[kind];
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <Field
        label="What to test"
        hint={
          takesInput(kind)
            ? 'Each case’s input is the message it answers.'
            : 'Each case fills the template’s variables.'
        }
      >
        {({ id, describedBy }) => (
          <NativeSelect
            id={id}
            aria-describedby={describedBy}
            value={kind}
            onChange={(event) =>
              onChange({ kind: event.target.value as SubjectKind, subjectId: '' })
            }
          >
            {subjectKinds.map((k) => (
              <option key={k} value={k}>
                {subjectKindLabels[k]}
              </option>
            ))}
          </NativeSelect>
        )}
      </Field>
      <Field
        label={label}
        error={error}
        hint={
          deletedNote ? 'The one it tested was deleted: pick another to run it again.' : undefined
        }
      >
        {({ id, describedBy, invalid }) =>
          list.isPending ? (
            <Spinner className="size-5" label={`Loading your ${page.noun}`} />
          ) : list.isError ? (
            <p role="alert" className="text-sm text-destructive">
              Your {page.noun} could not be loaded: {errorMessage(list.error)}
            </p>
          ) : list.choices.length === 0 ? (
            <p className="text-sm text-muted-foreground">
              You have no {page.noun} yet.{' '}
              <Link to={page.path} className={linkClass}>
                Create one
              </Link>
              , then come back to test it.
            </p>
          ) : (
            <NativeSelect
              id={id}
              aria-describedby={describedBy}
              aria-invalid={invalid || undefined}
              value={subjectId}
              onChange={(event) => onChange({ kind, subjectId: event.target.value })}
            >
              <option value="" disabled>
                Pick one…
              </option>
              {list.choices.map((choice) => (
                <option key={choice.id} value={choice.id}>
                  {choice.name}
                </option>
              ))}
            </NativeSelect>
          )
        }
      </Field>
    </div>
  );
};

const SetForm = ({
  set,
  onDone,
  onCancel,
}: {
  set: TestSet | null;
  onDone: (saved: TestSet) => void;
  onCancel: () => void;
}) => {
  const creating = useCreateTestSet();
  const form = useEditorForm({
    item: set,
    initial: () => draftOf(set),
    check: checkOf(set),
    create: {
      isPending: creating.isPending,
      mutateAsync: ({ subject, ...body }: SetBody) => {
        // The check always gives a new set its subject.
        if (!subject) throw new Error('Pick what this set tests');
        return creating.mutateAsync({ ...body, subject });
      },
    },
    update: useUpdateTestSet(),
    onDone,
    fieldOfErrorCode,
  });
  const { draft, errors, set: setField, setDraft, setErrors } = form;
  return (
    <DraftForm form={form} onCancel={onCancel} submitLabel={set ? 'Save' : 'Create test set'}>
      <TextField
        label="Name"
        error={errors.name}
        maxLength={testRunLimits.name}
        placeholder="e.g. Support replies"
        value={draft.name}
        onChange={(value) => setField('name', value)}
      />
      <TextAreaField
        label="Description"
        error={errors.description}
        hint="What the cases check, for you and your team. Optional."
        rows={2}
        maxLength={testRunLimits.description}
        value={draft.description}
        onChange={(value) => setField('description', value)}
      />
      <SubjectFields
        kind={draft.kind}
        subjectId={draft.subjectId}
        error={errors.subjectId}
        deletedNote={set !== null && set.subject_name === null && draft.subjectId === ''}
        onChange={(next) => {
          setDraft((current) => ({ ...current, ...next }));
          setErrors({ ...errors, subjectId: undefined });
        }}
      />
      <label className="flex items-center gap-2 text-sm">
        <input
          type="checkbox"
          checked={draft.notify}
          onChange={(event) => setField('notify', event.target.checked)}
        />
        E-mail me the summary when a run of this set ends
      </label>
    </DraftForm>
  );
};

/** Creates a test set, or edits one's name, subject and e-mail. */
export const TestSetDialog = ({
  open,
  set,
  onClose,
  onSaved,
}: {
  open: boolean;
  set: TestSet | null;
  onClose: () => void;
  onSaved: (set: TestSet) => void;
}) => (
  <EditorDialog open={open} item={set} newTitle="New test set" onClose={onClose}>
    {(item) => <SetForm set={item} onDone={onSaved} onCancel={onClose} />}
  </EditorDialog>
);
