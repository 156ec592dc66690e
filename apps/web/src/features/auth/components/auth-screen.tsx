import type { Role } from '@fabric/contract';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { SignInForm } from './sign-in-form';
import { SignUpForm } from './sign-up-form';

export type AuthMode = 'signin' | 'signup';

const headings: Record<AuthMode, { title: string; description: string }> = {
  signin: { title: 'Welcome back', description: 'Sign in to manage your nodes, jobs and billing.' },
  signup: {
    title: 'Create your account',
    description: 'Share your compute and earn, or run AI workloads on the network.',
  },
};

function isAuthMode(value: string): value is AuthMode {
  return value === 'signin' || value === 'signup';
}

/** The Sign In / Sign Up tabs. The route owns which tab is open, so the URL always matches it. */
export function AuthScreen({
  mode,
  initialRole,
  onModeChange,
  onAuthenticated,
}: {
  mode: AuthMode;
  initialRole: Role;
  onModeChange: (mode: AuthMode) => void;
  onAuthenticated: () => void;
}) {
  const heading = headings[mode];
  return (
    <Card className="gap-0 py-0 shadow-md sm:py-2">
      <CardHeader className="px-5 pt-6 pb-2 text-center sm:px-8">
        <h1 className="text-2xl leading-tight font-semibold tracking-tight">{heading.title}</h1>
        <CardDescription>{heading.description}</CardDescription>
      </CardHeader>
      <CardContent className="px-5 pt-4 pb-6 sm:px-8">
        <Tabs
          value={mode}
          onValueChange={(value) => {
            if (isAuthMode(value)) onModeChange(value);
          }}
        >
          <TabsList className="w-full">
            <TabsTrigger value="signin">Sign In</TabsTrigger>
            <TabsTrigger value="signup">Sign Up</TabsTrigger>
          </TabsList>
          <TabsContent value="signin" className="pt-2">
            <SignInForm onSignedIn={onAuthenticated} />
          </TabsContent>
          <TabsContent value="signup" className="pt-2">
            <SignUpForm key={initialRole} initialRole={initialRole} onSignedUp={onAuthenticated} />
          </TabsContent>
        </Tabs>
      </CardContent>
    </Card>
  );
}
