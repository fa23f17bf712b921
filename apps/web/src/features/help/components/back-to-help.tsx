import { Link } from 'react-router';
import { cn } from '@/lib/utils';

export const BackToHelp = ({ className }: { className?: string }) => (
  <Link
    to="/help"
    className={cn(
      'inline-flex items-center gap-1.5 rounded-sm text-sm font-medium text-muted-foreground outline-none hover:text-foreground focus-visible:ring-[3px] focus-visible:ring-ring/50',
      className,
    )}
  >
    <span aria-hidden="true">←</span>
    Back to help
  </Link>
);
