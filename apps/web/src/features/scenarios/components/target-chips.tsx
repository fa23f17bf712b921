import { cn } from '@/lib/utils';
import { modelLabel, providerLabel } from '../utils/model-label';

type TargetChipsProps = {
  targets: { provider: string; model: string }[];
  label?: string;
  className?: string;
};

/** The models a scenario compares, as "Provider · model" chips. */
export const TargetChips = ({ targets, label = 'Models', className }: TargetChipsProps) =>
  targets.length === 0 ? null : (
    <ul aria-label={label} className={cn('flex flex-wrap gap-1.5', className)}>
      {targets.map((target, i) => (
        <li
          key={`${target.provider}-${target.model}-${i}`}
          className="inline-flex max-w-full items-center gap-1 truncate rounded-full border bg-muted/50 px-2 py-0.5 text-xs"
        >
          <span className="font-medium">{providerLabel(target.provider)}</span>
          <span aria-hidden="true" className="text-muted-foreground">
            ·
          </span>
          <span className="truncate text-muted-foreground">
            {modelLabel(target.provider, target.model)}
          </span>
        </li>
      ))}
    </ul>
  );
