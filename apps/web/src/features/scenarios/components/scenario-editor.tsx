import { Play, Save } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { scenarioLimits, type Scenario } from '@chorus/shared/api/scenarios';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { errorMessage, isApiError } from '@/lib/api-error';
import { toast } from '@/lib/toast';
import { useCreateScenario } from '../api/create-scenario';
import { useUpdateScenario } from '../api/update-scenario';
import { errorFor, parseFieldErrors, type FieldErrors } from '../utils/field-errors';
import { draftFromScenario, draftToSetup, emptyDraft, type SetupDraft } from '../utils/setup-draft';
import { CostEstimatePanel } from './cost-estimate-panel';
import { SetupFields } from './setup-fields';
import { TextareaField } from './textarea-field';

type Meta = { title: string; description: string; category: string };

const bodyOf = (meta: Meta, draft: SetupDraft) => ({
  title: meta.title,
  description: meta.description,
  category: meta.category,
  ...draftToSetup(draft),
});

export const runPath = (scenarioId: string) => `/scenario-proxy-plus?scenario=${scenarioId}`;

/**
 * The form of a scenario: a new one when `scenario` is undefined. The server checks every field;
 * its 400 is shown beside the fields it names.
 */
export const ScenarioEditor = ({ scenario }: { scenario?: Scenario }) => {
  const navigate = useNavigate();
  const create = useCreateScenario();
  const update = useUpdateScenario();
  const [meta, setMeta] = useState<Meta>(() => ({
    title: scenario?.title ?? '',
    description: scenario?.description ?? '',
    category: scenario?.category ?? '',
  }));
  const [draft, setDraft] = useState<SetupDraft>(() =>
    scenario ? draftFromScenario(scenario) : emptyDraft(),
  );
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const saving = create.isPending || update.isPending;
  const body = bodyOf(meta, draft);
  const dirty =
    !scenario ||
    JSON.stringify(body) !== JSON.stringify(bodyOf(scenario, draftFromScenario(scenario)));

  const refused = (error: unknown) => {
    if (isApiError(error) && error.code === 'bad_request:validation') {
      const fields = parseFieldErrors(error.message);
      setErrors(fields);
      setFormError(fields[''] ?? 'Fix the fields marked below, then save again.');
    } else {
      setErrors({});
      setFormError(errorMessage(error, 'The scenario could not be saved.'));
    }
    toast.error(scenario ? 'The scenario was not saved' : 'The scenario was not created');
  };

  const save = (then: 'stay' | 'run') => {
    const saved = (result: Scenario) => {
      setErrors({});
      setFormError(null);
      if (then === 'run') void navigate(runPath(result.id));
      else if (!scenario) void navigate(`/scenarios/${result.id}`, { replace: true });
    };
    if (scenario) {
      update.mutate(
        { id: scenario.id, patch: body },
        {
          onSuccess: (result) => {
            toast.success('Scenario saved');
            saved(result);
          },
          onError: refused,
        },
      );
    } else {
      create.mutate(body, {
        onSuccess: (result) => {
          toast.success('Scenario created');
          saved(result);
        },
        onError: refused,
      });
    }
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    save('stay');
  };

  return (
    <form noValidate onSubmit={onSubmit} className="grid gap-6" aria-label="Scenario">
      {formError ? (
        <p
          role="alert"
          className="rounded-md border border-destructive/40 bg-destructive/5 p-3 text-sm text-destructive"
        >
          {formError}
        </p>
      ) : null}
      <section
        aria-labelledby="scenario-about-title"
        className="grid gap-4 rounded-xl border p-4 sm:p-5"
      >
        <h2 id="scenario-about-title" className="font-semibold">
          About
        </h2>
        <FormField
          label="Title"
          value={meta.title}
          maxLength={scenarioLimits.title}
          error={errorFor(errors, 'title')}
          onChange={(event) => setMeta({ ...meta, title: event.target.value })}
        />
        <TextareaField
          label="Description"
          rows={2}
          maxLength={scenarioLimits.description}
          value={meta.description}
          error={errorFor(errors, 'description')}
          hint="Optional: what this scenario checks."
          onChange={(event) => setMeta({ ...meta, description: event.target.value })}
        />
        <FormField
          label="Category"
          value={meta.category}
          maxLength={scenarioLimits.category}
          placeholder="e.g. Writing, Code review"
          error={errorFor(errors, 'category')}
          onChange={(event) => setMeta({ ...meta, category: event.target.value })}
        />
      </section>
      <section
        aria-labelledby="scenario-setup-title"
        className="grid gap-4 rounded-xl border p-4 sm:p-5"
      >
        <h2 id="scenario-setup-title" className="font-semibold">
          Prompt and models
        </h2>
        <SetupFields
          draft={draft}
          onChange={setDraft}
          errors={errors}
          aside={<CostEstimatePanel draft={draft} />}
        />
      </section>
      <div className="flex flex-wrap items-center gap-2">
        <Button type="submit" disabled={saving || (scenario !== undefined && !dirty)}>
          <Save aria-hidden="true" />
          {saving ? 'Saving…' : scenario ? 'Save' : 'Create scenario'}
        </Button>
        {scenario && !dirty ? (
          <Button variant="outline" onClick={() => void navigate(runPath(scenario.id))}>
            <Play aria-hidden="true" /> Run
          </Button>
        ) : (
          <Button variant="outline" disabled={saving} onClick={() => save('run')}>
            <Play aria-hidden="true" /> {scenario ? 'Save and run' : 'Create and run'}
          </Button>
        )}
        {scenario && dirty ? (
          <span className="text-sm text-muted-foreground" role="status">
            Unsaved changes
          </span>
        ) : null}
      </div>
    </form>
  );
};
