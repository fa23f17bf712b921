import { Bug } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { PageHeader } from '@/components/ui/page-header';

const Exploder = (): never => {
  throw new Error('Deliberate rendering error from the error telemetry test page');
};

/** Lets a person check that a rendering error shows the crash screen and can be recovered. */
export const ErrorTelemetryTestPage = () => {
  const [explode, setExplode] = useState(false);
  return (
    <div>
      <PageHeader
        title="Error telemetry test"
        description="Check how the app behaves when a page fails to render."
      />
      <Card>
        <CardHeader>
          <Bug aria-hidden="true" className="mb-2 size-8 text-muted-foreground" />
          <CardTitle>Trigger a rendering error</CardTitle>
          <CardDescription>
            The button below makes this page throw while rendering. You should see the crash screen;
            “Try Again” brings this page back.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <Button variant="destructive" onClick={() => setExplode(true)}>
            Throw a rendering error
          </Button>
        </CardContent>
      </Card>
      {explode ? <Exploder /> : null}
    </div>
  );
};
