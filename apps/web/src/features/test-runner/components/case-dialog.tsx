import { Plus, Trash2 } from 'lucide-react';
import { useEffect } from 'react';
import { testRunLimits, type TestSet, type TestSetCase } from '@chorus/shared/api/test-runs';
import { DraftForm, EditorDialog, useEditorForm } from '@/components/forms/draft-form';
import { TextAreaField, TextField } from '@/components/forms/field';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { defaultAiProvider } from '@/lib/providers';
import { takesInput, useSubjectVariables } from '../api/subjects';
import { useCreateTestCase, useUpdateTestCase } from '../api/test-sets';
import { AssertionsEditor } from './assertions-editor';
import {
  assertionErrorKey,
  caseBodyOf,
  caseDraftOf,
  newVariableRow,
  withTemplateVariables,
  type CaseErrors,
  type VariableRow,
} from './case-draft';

/** The judge a new judge assertion starts with: the set's first model, else the default. */
export const defaultJudgeOf = (set: TestSet) => ({
  provider: set.targets[0]?.provider ?? defaultAiProvider,
  model: set.targets[0]?.model ?? '',
});

const VariablesEditor = ({
  rows,
  error,
  onChange,
}: {
  rows: VariableRow[];
  error: string | undefined;
  onChange: (rows: VariableRow[]) => void;
}) => {
  const update = (index: number, field: 'name' | 'value', value: string) =>
    onChange(rows.map((row, i) => (i === index ? { ...row, [field]: value } : row)));
  return (
    <fieldset className="grid gap-2">
      <legend className="mb-1 text-sm font-medium">Variables</legend>
      <p className="-mt-1 text-xs text-muted-foreground">
        The values that fill the template’s {'{{variables}}'} for this case.
      </p>
      {rows.length > 0 ? (
        <ul aria-label="Variables" className="grid gap-2">
          {rows.map((row, index) => (
            <li key={row.key} className="grid grid-cols-[10rem_minmax(0,1fr)_auto] gap-2">
              <Input
                aria-label={`Variable ${index + 1}`}
                placeholder="name"
                className="font-mono text-xs"
                maxLength={64}
                value={row.name}
                onChange={(event) => update(index, 'name', event.target.value)}
              />
              <Input
                aria-label={`Value of ${row.name.trim() || `variable ${index + 1}`}`}
                placeholder="value"
                value={row.value}
                onChange={(event) => update(index, 'value', event.target.value)}
              />
              <Button
                variant="ghost"
                size="icon"
                className="text-muted-foreground"
                aria-label={`Remove variable ${index + 1}`}
                title="Remove"
                onClick={() => onChange(rows.filter((_, i) => i !== index))}
              >
                <Trash2 aria-hidden="true" />
              </Button>
            </li>
          ))}
        </ul>
      ) : null}
      {error ? <p className="text-sm text-destructive">{error}</p> : null}
      <div>
        <Button variant="outline" size="sm" onClick={() => onChange([...rows, newVariableRow()])}>
          <Plus aria-hidden="true" /> Add variable
        </Button>
      </div>
    </fieldset>
  );
};

const CaseForm = ({
  set,
  testCase,
  onDone,
  onCancel,
}: {
  set: TestSet;
  testCase: TestSetCase | null;
  onDone: () => void;
  onCancel: () => void;
}) => {
  const withInput = takesInput(set.subject.kind);
  const judge = defaultJudgeOf(set);
  const form = useEditorForm({
    item: testCase,
    initial: () => caseDraftOf(testCase, judge),
    check: caseBodyOf(withInput),
    create: useCreateTestCase(set.id),
    update: useUpdateTestCase(set.id),
    onDone,
  });
  const { draft, errors, set: setField, setDraft, setErrors } = form;

  // The template's variables, as rows to fill in, once they are known.
  const template = useSubjectVariables(set.subject, set.subject_name !== null);
  useEffect(() => {
    if (!template.data) return;
    const data = template.data;
    setDraft((current) => ({
      ...current,
      variables: withTemplateVariables(current.variables, data),
    }));
    // Only when the template arrives: a row the user removes later stays removed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [template.data]);

  return (
    <DraftForm form={form} onCancel={onCancel} submitLabel={testCase ? 'Save case' : 'Add case'}>
      <TextField
        label="Name"
        error={errors.name}
        maxLength={testRunLimits.caseName}
        placeholder="e.g. Refund request, angry customer"
        value={draft.name}
        onChange={(value) => setField('name', value)}
      />
      {withInput ? (
        <TextAreaField
          label="Input"
          error={errors.input}
          hint="The message sent to the custom AI or agent."
          rows={4}
          maxLength={testRunLimits.input}
          value={draft.input}
          onChange={(value) => setField('input', value)}
        />
      ) : null}
      <VariablesEditor
        rows={draft.variables}
        error={errors.variables}
        onChange={(rows) => setField('variables', rows)}
      />
      <TextAreaField
        label="Expected output"
        error={errors.expected_output}
        hint="Optional: a good answer, for you to compare with and for an Equals assertion left empty."
        rows={3}
        maxLength={testRunLimits.expectedOutput}
        value={draft.expectedOutput}
        onChange={(value) => setField('expectedOutput', value)}
      />
      <AssertionsEditor
        assertions={draft.assertions}
        errors={errors}
        judge={judge}
        onChange={(assertions, changed) => {
          setDraft((current) => ({ ...current, assertions }));
          // Removing one renumbers the rest: their errors are said again on the next save.
          const next: CaseErrors = { ...errors, assertions: undefined };
          for (const key of Object.keys(next)) {
            if (
              key.startsWith('assertion-') &&
              (changed === undefined || key === assertionErrorKey(changed))
            ) {
              next[key] = undefined;
            }
          }
          setErrors(next);
        }}
      />
    </DraftForm>
  );
};

/** Adds a case to a set, or edits one. */
export const CaseDialog = ({
  open,
  set,
  testCase,
  onClose,
}: {
  open: boolean;
  set: TestSet;
  testCase: TestSetCase | null;
  onClose: () => void;
}) => (
  <EditorDialog
    open={open}
    item={testCase}
    newTitle="New case"
    onClose={onClose}
    className="max-w-3xl"
  >
    {(item) => <CaseForm set={set} testCase={item} onDone={onClose} onCancel={onClose} />}
  </EditorDialog>
);
