import { Bug, CircleAlert, CircleCheck, Loader2 } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { PageHeader } from '@/components/ui/page-header';
import { isApiError } from '@/lib/api-error';
import { errorReporter, type SentReport } from '@/lib/resilience/error-reporter';
import { useErrorReports } from '@/lib/resilience/hooks';
import { missingResourcePath, requestMissingResource } from '../api/request-missing-resource';

const Exploder = (): never => {
  throw new Error('Deliberate rendering error from the error telemetry test page');
};

const raiseAsyncError = () => {
  // Nobody catches this rejection: the window's unhandledrejection handler reports it.
  void Promise.reject(new Error('Deliberate async error from the error telemetry test page'));
};

const sendFailingRequest = async () => {
  try {
    await requestMissingResource();
  } catch (error) {
    await errorReporter.report('request', error, {
      path: missingResourcePath,
      status: isApiError(error) ? error.status : null,
    });
  }
};

const ReportState = ({ report }: { report: SentReport }) => {
  if (report.state === 'sending') {
    return (
      <span className="inline-flex items-center gap-1 text-muted-foreground">
        <Loader2 aria-hidden="true" className="size-3 animate-spin" /> Sending…
      </span>
    );
  }
  if (report.state === 'reported') {
    return (
      <span className="inline-flex items-center gap-1 text-emerald-700 dark:text-emerald-400">
        <CircleCheck aria-hidden="true" className="size-3" /> Reported (id {report.id})
      </span>
    );
  }
  return (
    <span className="inline-flex items-center gap-1 text-destructive">
      <CircleAlert aria-hidden="true" className="size-3" /> Not reported: {report.reason}
    </span>
  );
};

/**
 * Raises each kind of error the app reports — a rendering error (the crash screen), an async
 * error and a failed request — and lists what became of each report.
 */
export const ErrorTelemetryTestPage = () => {
  const [explode, setExplode] = useState(false);
  const reports = useErrorReports();
  return (
    <div>
      <PageHeader
        title="Error telemetry test"
        description="Raise each kind of error and check that it reaches the error log."
      />
      <Card>
        <CardHeader>
          <Bug aria-hidden="true" className="mb-2 size-8 text-muted-foreground" />
          <CardTitle>Trigger an error</CardTitle>
          <CardDescription>
            A rendering error shows the crash screen (“Try Again” brings this page back). An async
            error is an unhandled promise rejection. A failed request asks for a path the server
            does not have. Each one is sent to the error log and listed below.
          </CardDescription>
        </CardHeader>
        <CardContent className="flex flex-wrap gap-3">
          <Button variant="destructive" onClick={() => setExplode(true)}>
            Throw a rendering error
          </Button>
          <Button variant="outline" onClick={raiseAsyncError}>
            Raise an async error
          </Button>
          <Button variant="outline" onClick={() => void sendFailingRequest()}>
            Send a failing request
          </Button>
        </CardContent>
      </Card>
      <section aria-labelledby="reports-title" className="mt-6">
        <h2 id="reports-title" className="mb-2 text-lg font-semibold">
          Reports from this tab
        </h2>
        {reports.length === 0 ? (
          <p className="text-sm text-muted-foreground">Nothing reported yet.</p>
        ) : (
          <ul className="space-y-2 text-sm">
            {reports.map((report) => (
              <li key={report.key} className="rounded-md border px-3 py-2">
                <p>
                  <span className="font-medium">{report.kind}</span>: {report.message}
                </p>
                <ReportState report={report} />
              </li>
            ))}
          </ul>
        )}
      </section>
      {explode ? <Exploder /> : null}
    </div>
  );
};
