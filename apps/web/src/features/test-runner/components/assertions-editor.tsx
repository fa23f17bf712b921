import { Plus, Trash2 } from 'lucide-react';
import { useId, useState } from 'react';
import { assertionTypes, testRunLimits, type AssertionType } from '@chorus/shared/api/test-runs';
import type { ProviderId } from '@chorus/shared/providers';
import { Field, TextAreaField, TextField } from '@/components/forms/field';
import { Button } from '@/components/ui/button';
import { NativeSelect } from '@/components/ui/native-select';
import { ProviderModelFields } from '@/lib/workflows/provider-model-fields';
import {
  assertionErrorKey,
  newAssertionDraft,
  schemaError,
  type AssertionDraft,
  type CaseErrors,
} from './case-draft';
import { assertionTypeLabels } from './run-format';

const Checkbox = ({
  label,
  checked,
  onChange,
}: {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
}) => (
  <label className="flex items-center gap-2 text-sm">
    <input type="checkbox" checked={checked} onChange={(event) => onChange(event.target.checked)} />
    {label}
  </label>
);

const regexFlags = [
  { flag: 'i', label: 'i — ignore case' },
  { flag: 'm', label: 'm — ^ and $ match at each line' },
  { flag: 's', label: 's — . matches line breaks' },
] as const;

/** The fields of one assertion, fitting its type. */
const AssertionFields = ({
  draft,
  onChange,
}: {
  draft: AssertionDraft;
  onChange: (next: AssertionDraft) => void;
}) => {
  const set = <K extends keyof AssertionDraft>(field: K, value: AssertionDraft[K]) =>
    onChange({ ...draft, [field]: value });
  switch (draft.type) {
    case 'equals':
      return (
        <>
          <TextAreaField
            label="Expected text"
            hint="The whole answer must be this text. Leave empty to compare with the case’s expected output."
            rows={2}
            maxLength={testRunLimits.expectedOutput}
            value={draft.value}
            onChange={(value) => set('value', value)}
          />
          <Checkbox
            label="Ignore case"
            checked={draft.ignoreCase}
            onChange={(value) => set('ignoreCase', value)}
          />
        </>
      );
    case 'contains':
    case 'not_contains':
      return (
        <>
          <TextAreaField
            label={draft.type === 'contains' ? 'Texts to look for' : 'Texts that must not appear'}
            hint={`One per line, at most ${testRunLimits.containsValues}.`}
            rows={3}
            value={draft.values}
            onChange={(value) => set('values', value)}
          />
          <div className="flex flex-wrap items-end gap-4">
            {draft.type === 'contains' ? (
              <Field label="Passes when">
                {({ id }) => (
                  <NativeSelect
                    id={id}
                    className="w-auto"
                    value={draft.mode}
                    onChange={(event) => set('mode', event.target.value === 'all' ? 'all' : 'any')}
                  >
                    <option value="any">any of them appears</option>
                    <option value="all">all of them appear</option>
                  </NativeSelect>
                )}
              </Field>
            ) : null}
            <Checkbox
              label="Ignore case"
              checked={draft.ignoreCase}
              onChange={(value) => set('ignoreCase', value)}
            />
          </div>
        </>
      );
    case 'regex':
      return (
        <>
          <TextField
            label="Pattern"
            hint="RE2 syntax, matched anywhere in the answer: no look-around or backreferences. Use ^ and $ to match the whole of it."
            className="font-mono"
            spellCheck={false}
            maxLength={testRunLimits.regexPattern}
            value={draft.pattern}
            onChange={(value) => set('pattern', value)}
          />
          <fieldset className="flex flex-wrap gap-4">
            <legend className="mb-1 text-sm font-medium">Flags</legend>
            {regexFlags.map(({ flag, label }) => (
              <Checkbox
                key={flag}
                label={label}
                checked={draft.flags.includes(flag)}
                onChange={(on) =>
                  set(
                    'flags',
                    regexFlags
                      .map((f) => f.flag)
                      .filter((f) => (f === flag ? on : draft.flags.includes(f)))
                      .join(''),
                  )
                }
              />
            ))}
          </fieldset>
        </>
      );
    case 'is_json':
      return (
        <p className="text-sm text-muted-foreground">Passes when the whole answer reads as JSON.</p>
      );
    case 'json_schema': {
      const error = schemaError(draft.schema);
      return (
        <TextAreaField
          label="JSON schema"
          error={error ?? undefined}
          hint="The answer must be JSON that this schema (draft 2020-12) accepts."
          rows={6}
          spellCheck={false}
          className="font-mono text-xs"
          value={draft.schema}
          onChange={(value) => set('schema', value)}
        />
      );
    }
    case 'length':
      return (
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label="At least (characters)"
            inputMode="numeric"
            value={draft.min}
            onChange={(value) => set('min', value)}
          />
          <TextField
            label="At most (characters)"
            inputMode="numeric"
            value={draft.max}
            onChange={(value) => set('max', value)}
          />
        </div>
      );
    case 'latency':
      return (
        <TextField
          label="At most (milliseconds)"
          hint="From the request to the whole answer."
          inputMode="numeric"
          value={draft.maxMs}
          onChange={(value) => set('maxMs', value)}
        />
      );
    case 'cost':
      return (
        <TextField
          label="At most (US dollars)"
          hint="The answer’s estimated cost from the price table, e.g. 0.002."
          inputMode="decimal"
          value={draft.maxUsd}
          onChange={(value) => set('maxUsd', value)}
        />
      );
    case 'judge':
      return (
        <>
          <TextAreaField
            label="Rubric"
            hint="What a good answer does, in plain words. The judge model grades the answer against it; the answer is passed to it as quoted data, never as instructions."
            rows={3}
            maxLength={testRunLimits.rubric}
            placeholder="e.g. Apologises once, gives the refund steps, and stays under 100 words."
            value={draft.rubric}
            onChange={(value) => set('rubric', value)}
          />
          <ProviderModelFields
            provider={draft.provider}
            model={draft.model}
            onChange={(next) => onChange({ ...draft, ...next })}
          />
          <TextField
            label="Pass score"
            hint="From 0 to 1: the judge’s score must reach it, and the judge must say it passes."
            inputMode="decimal"
            value={draft.passScore}
            onChange={(value) => set('passScore', value)}
          />
        </>
      );
  }
};

/** A case's assertions: add any type, fill in its fields, remove one. */
export const AssertionsEditor = ({
  assertions,
  errors,
  judge,
  onChange,
}: {
  assertions: AssertionDraft[];
  errors: CaseErrors;
  /** The judge model a new judge assertion starts with. */
  judge: { provider: ProviderId; model: string };
  onChange: (assertions: AssertionDraft[], changedIndex?: number) => void;
}) => {
  const [adding, setAdding] = useState<AssertionType>('contains');
  const addId = useId();
  const full = assertions.length >= testRunLimits.assertionsPerCase;
  return (
    <fieldset className="grid gap-3">
      <legend className="mb-1 text-sm font-medium">Assertions</legend>
      <p className="-mt-1 text-xs text-muted-foreground">
        What every answer must hold to pass. A case with none passes whenever the model answers.
      </p>
      {assertions.length > 0 ? (
        <ol aria-label="Assertions" className="grid gap-3">
          {assertions.map((draft, index) => {
            const title = `Assertion ${index + 1}: ${assertionTypeLabels[draft.type]}`;
            const error = errors[assertionErrorKey(index)];
            return (
              <li key={draft.key} aria-label={title} className="grid gap-3 rounded-lg border p-3">
                <div className="flex items-center justify-between gap-2">
                  <h3 className="text-sm font-semibold">{title}</h3>
                  <Button
                    variant="ghost"
                    size="icon"
                    className="size-8 text-muted-foreground"
                    aria-label={`Remove assertion ${index + 1}`}
                    title="Remove"
                    onClick={() => onChange(assertions.filter((_, i) => i !== index))}
                  >
                    <Trash2 aria-hidden="true" />
                  </Button>
                </div>
                <AssertionFields
                  draft={draft}
                  onChange={(next) =>
                    onChange(
                      assertions.map((a, i) => (i === index ? next : a)),
                      index,
                    )
                  }
                />
                {error ? (
                  <p role="alert" className="text-sm text-destructive">
                    {error}
                  </p>
                ) : null}
              </li>
            );
          })}
        </ol>
      ) : null}
      {errors.assertions ? <p className="text-sm text-destructive">{errors.assertions}</p> : null}
      <div className="flex flex-wrap items-end gap-2">
        <div className="grid gap-1.5">
          <label htmlFor={addId} className="text-sm font-medium">
            Assertion to add
          </label>
          <NativeSelect
            id={addId}
            className="w-auto"
            value={adding}
            onChange={(event) => setAdding(event.target.value as AssertionType)}
          >
            {assertionTypes.map((type) => (
              <option key={type} value={type}>
                {assertionTypeLabels[type]}
              </option>
            ))}
          </NativeSelect>
        </div>
        <Button
          variant="outline"
          disabled={full}
          onClick={() => onChange([...assertions, newAssertionDraft(adding, judge)])}
        >
          <Plus aria-hidden="true" /> Add assertion
        </Button>
      </div>
    </fieldset>
  );
};
