import { Link, isRouteErrorResponse, useRouteError } from 'react-router';
import { messages } from '@chorus/shared/messages';
import { buttonVariants } from '@/components/ui/button';

/** The router's last resort (spec §8 "Router default"). */
export const RouterErrorPage = () => {
  const error = useRouteError();
  const detail = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : null;
  return (
    <main className="flex min-h-dvh items-center justify-center px-4">
      <div role="alert" className="max-w-md text-center">
        <h1 className="text-2xl font-semibold">{messages.routerError}</h1>
        {detail ? <p className="mt-2 text-sm text-muted-foreground">{detail}</p> : null}
        <Link to="/" className={buttonVariants({ className: 'mt-6' })}>
          Go to the home page
        </Link>
      </div>
    </main>
  );
};
