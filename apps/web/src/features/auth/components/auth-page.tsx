import { useQueryClient } from '@tanstack/react-query';
import { ShieldAlert } from 'lucide-react';
import { useState } from 'react';
import { Link, Navigate, useSearchParams } from 'react-router';
import { messages } from '@chorus/shared/messages';
import { storageKeys } from '@chorus/shared/storage-keys';
import { Button, buttonVariants } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { CenteredSpinner } from '@/components/ui/spinner';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useAdminStatus } from '@/lib/roles';
import { refreshSession, useSession } from '@/lib/session';
import { storage } from '@/lib/storage';
import { copySystemApiKeys } from '@/lib/system-keys';
import { toast } from '@/lib/toast';
import { useSignOut } from '@/lib/use-sign-out';
import { defaultSignedInPath, destinationFrom, isAdminPath } from '../api/auth-redirect';
import { useSignupMode } from '@/lib/queries/signup-mode';
import { ResetRequestForm } from './reset-request-form';
import { SignInForm } from './sign-in-form';
import { SignUpForm } from './sign-up-form';

type Mode = 'sign-in' | 'sign-up' | 'reset';

/** Provider a new account starts with (spec §4: after sign-up the default is gemini). */
const signUpDefaultProvider = 'gemini';

const NotAnAdmin = ({ email }: { email: string }) => {
  const { signOut, pending } = useSignOut();
  return (
    <Card>
      <CardHeader>
        <ShieldAlert aria-hidden="true" className="mb-2 size-8 text-muted-foreground" />
        <CardTitle asHeading="h1">The back office is for administrators</CardTitle>
        <CardDescription>
          You are signed in as {email}, which is not an administrator account. Sign in with an
          administrator account to continue, or go back to your workspace.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-wrap gap-3">
        <Link to={defaultSignedInPath} className={buttonVariants()}>
          Go to chat
        </Link>
        <Button variant="outline" disabled={pending} onClick={() => void signOut()}>
          Sign out
        </Button>
      </CardContent>
    </Card>
  );
};

/** A signed-in visitor goes on to where they were headed, unless that would loop. */
const SignedInRedirect = ({ destination, email }: { destination: string; email: string }) => {
  const { isAdmin, isLoading } = useAdminStatus();
  if (!isAdminPath(destination)) return <Navigate to={destination} replace />;
  if (isLoading) return <CenteredSpinner label="Checking access" />;
  if (isAdmin) return <Navigate to={destination} replace />;
  return <NotAnAdmin email={email} />;
};

export const AuthPage = () => {
  const session = useSession();
  const queryClient = useQueryClient();
  const [searchParams] = useSearchParams();
  const destination = destinationFrom(searchParams);
  // An invitation link (`?invite=…&email=…`) opens sign-up with the address filled in.
  const invite = searchParams.get('invite') ?? undefined;
  const invitedEmail = searchParams.get('email') ?? undefined;
  const [mode, setMode] = useState<Mode>(() =>
    searchParams.get('mode') === 'sign-up' || invite ? 'sign-up' : 'sign-in',
  );
  const signupMode = useSignupMode();
  const byRequest = signupMode.data?.signup_mode === 'request' && !invite;

  const afterSignIn = async () => {
    const current = await refreshSession(queryClient).catch(() => null);
    if (!current)
      toast.error(messages.auth.signInFailed, { description: messages.auth.sessionMissing });
  };

  const afterSignUp = async () => {
    storage.set(storageKeys.defaultProvider, signUpDefaultProvider);
    await copySystemApiKeys().catch((error: unknown) => {
      console.warn('Copying the system API keys after sign-up failed', error);
    });
    const current = await refreshSession(queryClient).catch(() => null);
    if (!current) {
      toast.success('Account created', { description: 'Sign in to continue.' });
      setMode('sign-in');
    }
  };

  let content;
  if (session.status === 'signed-in') {
    content = <SignedInRedirect destination={destination} email={session.user.email} />;
  } else if (mode === 'reset') {
    content = (
      <Card>
        <CardHeader>
          <CardTitle asHeading="h1">Reset your password</CardTitle>
        </CardHeader>
        <CardContent>
          <ResetRequestForm onBack={() => setMode('sign-in')} />
        </CardContent>
      </Card>
    );
  } else {
    content = (
      <Card>
        <CardHeader>
          <CardTitle asHeading="h1" className="text-xl">
            Welcome to Chorus
          </CardTitle>
          <CardDescription>
            {invite
              ? 'You were invited: create your account with the invited e-mail address.'
              : searchParams.get('redirect') === 'true'
                ? 'Sign in to continue to that page.'
                : byRequest
                  ? 'Sign in to your workspace, or request access.'
                  : 'Sign in to your workspace, or create an account.'}
          </CardDescription>
        </CardHeader>
        <CardContent>
          <Tabs value={mode} onValueChange={(value) => setMode(value as Mode)}>
            <TabsList aria-label="Sign in or sign up">
              <TabsTrigger value="sign-in">Sign in</TabsTrigger>
              <TabsTrigger value="sign-up">Sign up</TabsTrigger>
            </TabsList>
            <TabsContent value="sign-in">
              <SignInForm onSignedIn={afterSignIn} onForgotPassword={() => setMode('reset')} />
            </TabsContent>
            <TabsContent value="sign-up">
              {byRequest ? (
                <div className="grid gap-4 text-sm">
                  <p>
                    Sign-up on this workspace is by invitation. Ask for access; once an
                    administrator approves, you receive an e-mail with a link to create your
                    account.
                  </p>
                  <Link to="/request-access" className={buttonVariants()}>
                    Request access
                  </Link>
                </div>
              ) : (
                <SignUpForm onSignedUp={afterSignUp} invite={invite} initialEmail={invitedEmail} />
              )}
            </TabsContent>
          </Tabs>
          {signupMode.data?.signup_notice ? (
            <p className="mt-4 rounded-md border bg-muted/40 p-3 text-sm whitespace-pre-wrap text-muted-foreground">
              {signupMode.data.signup_notice}
            </p>
          ) : null}
        </CardContent>
      </Card>
    );
  }

  return <div className="mx-auto w-full max-w-md px-4 py-12 sm:py-16">{content}</div>;
};
