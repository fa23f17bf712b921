import { Upload } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import {
  importTestCasesSchema,
  testRunLimits,
  type ImportTestCasesResult,
  type TestSet,
} from '@chorus/shared/api/test-runs';
import type { ProviderId } from '@chorus/shared/providers';
import { Field, TextAreaField } from '@/components/forms/field';
import { Dialog } from '@/components/ui/dialog';
import { FormActions } from '@/components/ui/form-actions';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { errorMessage, isApiError } from '@/lib/api-error';
import { toast } from '@/lib/toast';
import { plural } from '@/components/forms/card-list';
import { ProviderModelFields } from '@/lib/workflows/provider-model-fields';
import { helpLinks } from '@/lib/help-links';
import { useImportTestCases } from '../api/test-sets';
import { defaultJudgeOf } from './case-dialog';
import { concreteModel, linkClass } from './run-format';

type Format = 'csv' | 'json';

const csvExample = `name,input,topic,assert,assert_2
Refund,Where is my refund?,billing,contains:refund,judge:Polite and gives the next step
Greeting,Hi there,,regex:^(Hi|Hello),max-length:200`;

const formatOfFile = (name: string): Format | null => {
  const lower = name.toLowerCase();
  if (lower.endsWith('.csv')) return 'csv';
  if (lower.endsWith('.json')) return 'json';
  return null;
};

/** The rows a 422 `test_sets:bad_import` lists, each with why; null for any other failure. */
const refusedRows = (error: unknown): ImportTestCasesResult['errors'] | null => {
  if (!isApiError(error) || error.code !== 'test_sets:bad_import') return null;
  const rows = error.body?.errors;
  if (!Array.isArray(rows) || rows.length === 0) return null;
  const named = rows.filter(
    (row): row is { row: number; message: string } =>
      typeof (row as { row?: unknown }).row === 'number' &&
      typeof (row as { message?: unknown }).message === 'string',
  );
  return named.length > 0 ? named : null;
};

type Refusal = { message: string; errors: ImportTestCasesResult['errors'] };

/** The rows the server left out, each with why. */
const RowErrors = ({ result }: { result: Refusal }) => (
  <div role="alert" className="grid gap-1 rounded-md border border-destructive/40 p-3 text-sm">
    <p className="font-medium text-destructive">{result.message}</p>
    <ul aria-label="Rows to fix" className="grid max-h-48 gap-0.5 overflow-y-auto">
      {result.errors.map((error) => (
        <li key={`${error.row}-${error.message}`}>
          Row {error.row}: {error.message}
        </li>
      ))}
    </ul>
  </div>
);

const ImportForm = ({ set, onDone }: { set: TestSet; onDone: () => void }) => {
  const [format, setFormat] = useState<Format>('csv');
  const [content, setContent] = useState('');
  const [fileName, setFileName] = useState<string | null>(null);
  const [judge, setJudge] = useState<{ provider: ProviderId; model: string }>(() =>
    defaultJudgeOf(set),
  );
  const [failure, setFailure] = useState<string | null>(null);
  const [result, setResult] = useState<Refusal | null>(null);
  const importCases = useImportTestCases(set.id);

  const readFile = async (file: File | undefined) => {
    if (!file) return;
    setResult(null);
    setFailure(null);
    if (file.size > testRunLimits.importChars * 4) {
      setFailure('The file is too large: at most 2,000,000 characters.');
      return;
    }
    setFileName(file.name);
    setFormat(formatOfFile(file.name) ?? format);
    setContent(await file.text());
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setResult(null);
    setFailure(null);
    const parsed = importTestCasesSchema.safeParse({
      format,
      content,
      judge: { provider: judge.provider, model: concreteModel(judge.provider, judge.model) },
    });
    if (!parsed.success) {
      setFailure(parsed.error.issues[0]?.message ?? 'Check the file');
      return;
    }
    importCases.mutate(parsed.data, {
      onSuccess: (answer) => {
        if (answer.errors.length > 0) {
          setResult({
            message: `${plural(answer.errors.length, 'row', 'rows')} could not be imported, so nothing was. Fix ${answer.errors.length === 1 ? 'it' : 'them'}, then import the file again.`,
            errors: answer.errors,
          });
          return;
        }
        toast.success(`${plural(answer.imported, 'case', 'cases')} imported`);
        onDone();
      },
      onError: (error) => {
        const rows = refusedRows(error);
        if (rows) setResult({ message: errorMessage(error), errors: rows });
        else setFailure(errorMessage(error));
      },
    });
  };

  return (
    <form noValidate className="grid gap-4" onSubmit={submit}>
      <p className="text-sm text-muted-foreground">
        CSV: a header row; the columns <code>name</code>, <code>input</code>,{' '}
        <code>expected_output</code> and <code>assertions</code> (a JSON list) are read as such,{' '}
        <code>assert</code>, <code>assert_2</code>… as short assertions (<code>contains:text</code>,{' '}
        <code>not-contains:text</code>, <code>regex:pattern</code>, <code>equals:text</code>,{' '}
        <code>is-json</code>, <code>judge:rubric</code>, <code>max-length:N</code>,{' '}
        <code>latency:N</code>), and any other column is a variable. JSON: a list of cases. Nothing
        is imported if a row is wrong.{' '}
        <Link to={helpLinks.testImport} className={linkClass}>
          The file formats: the guide
        </Link>
      </p>
      <div className="grid gap-4 sm:grid-cols-[minmax(0,1fr)_10rem]">
        <Field label="File" hint={fileName ? `Read from ${fileName}.` : 'A .csv or .json file.'}>
          {({ id, describedBy }) => (
            <Input
              id={id}
              type="file"
              accept=".csv,.json,text/csv,application/json"
              aria-describedby={describedBy}
              onChange={(event) => void readFile(event.target.files?.[0])}
            />
          )}
        </Field>
        <Field label="Format">
          {({ id }) => (
            <NativeSelect
              id={id}
              value={format}
              onChange={(event) => setFormat(event.target.value === 'json' ? 'json' : 'csv')}
            >
              <option value="csv">CSV</option>
              <option value="json">JSON</option>
            </NativeSelect>
          )}
        </Field>
      </div>
      <TextAreaField
        label="Cases to import"
        hint="The file’s text, or paste it here."
        rows={8}
        spellCheck={false}
        className="font-mono text-xs"
        placeholder={
          format === 'csv'
            ? csvExample
            : '[{ "name": "Refund", "input": "Where is my refund?", "assertions": [{ "type": "contains", "values": ["refund"] }] }]'
        }
        value={content}
        onChange={(value) => {
          setContent(value);
          setResult(null);
        }}
      />
      <fieldset className="grid gap-2">
        <legend className="mb-1 text-sm font-medium">Judge model</legend>
        <p className="-mt-1 text-xs text-muted-foreground">
          The model that grades <code>judge:</code> short assertions.
        </p>
        <ProviderModelFields
          provider={judge.provider}
          model={judge.model}
          onChange={(next) => setJudge(next)}
        />
      </fieldset>
      {result ? <RowErrors result={result} /> : null}
      <FormActions
        error={failure}
        onCancel={onDone}
        submitDisabled={importCases.isPending}
        submitLabel={
          <>
            <Upload aria-hidden="true" /> {importCases.isPending ? 'Importing…' : 'Import cases'}
          </>
        }
      />
    </form>
  );
};

/** Adds cases to a set from a CSV or JSON file, or text pasted in. */
export const ImportDialog = ({
  set,
  open,
  onClose,
}: {
  set: TestSet;
  open: boolean;
  onClose: () => void;
}) => (
  <Dialog
    open={open}
    title={`Import cases into “${set.name}”`}
    onClose={onClose}
    className="max-w-2xl"
  >
    {open ? <ImportForm set={set} onDone={onClose} /> : null}
  </Dialog>
);
