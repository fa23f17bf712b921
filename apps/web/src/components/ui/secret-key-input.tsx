import { Input } from './input';

const problemId = (id: string) => `${id}-problem`;

/** A key field: never autofilled or spell-checked, tied to its problem text when there is one. */
export const SecretKeyInput = ({
  id,
  value,
  problem,
  placeholder,
  onChange,
}: {
  id: string;
  value: string;
  problem: string | null;
  placeholder: string;
  onChange: (value: string) => void;
}) => (
  <Input
    id={id}
    type="password"
    autoComplete="off"
    spellCheck={false}
    placeholder={placeholder}
    value={value}
    aria-invalid={problem ? true : undefined}
    aria-describedby={problem ? problemId(id) : undefined}
    onChange={(event) => onChange(event.target.value)}
  />
);

export const FieldProblem = ({ id, problem }: { id: string; problem: string | null }) =>
  problem ? (
    <p id={problemId(id)} className="text-sm text-destructive">
      {problem}
    </p>
  ) : null;
