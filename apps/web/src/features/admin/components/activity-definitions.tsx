import { activityDefinitions } from '@chorus/shared/api/analytics';
import { cn } from '@/lib/utils';

/**
 * What "active", "message" and "failed reply" count, in the same words on the overview, the
 * analytics and the usage statistics, which all count them the same way on the server.
 */
export const ActivityDefinitions = ({ className }: { className?: string }) => (
  <p className={cn('text-sm text-muted-foreground', className)}>
    {activityDefinitions.active} {activityDefinitions.message} {activityDefinitions.failedReply}{' '}
    Failed calls are AI calls of any kind that ended in an error.
  </p>
);
