import { DEFAULT_ROLE, ROLE_PARAMS, type Role } from '@fabric/contract';
import { useMatch, useNavigate, useParams } from 'react-router';
import { AuthLayout } from '@/features/auth/components/auth-layout';
import { AuthScreen, type AuthMode } from '@/features/auth/components/auth-screen';
import { isRoleParam, paths } from '@/config/paths';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { NotFoundRoute } from '../not-found';

/**
 * /auth/signin, /auth/signup and /auth/{roleParam} (Sign Up with that role chosen). One component
 * serves all three so that switching tabs (which changes the URL) keeps the screen and its focus.
 */
export function AuthRoute() {
  const { roleParam } = useParams();
  const mode: AuthMode = useMatch(paths.auth.signIn.path) ? 'signin' : 'signup';
  if (roleParam !== undefined && !isRoleParam(roleParam)) return <NotFoundRoute />;
  const initialRole = isRoleParam(roleParam) ? ROLE_PARAMS[roleParam] : DEFAULT_ROLE;
  return <AuthPage mode={mode} initialRole={initialRole} />;
}

function AuthPage({ mode, initialRole }: { mode: AuthMode; initialRole: Role }) {
  const navigate = useNavigate();
  useDocumentTitle(mode === 'signin' ? 'Sign In' : 'Sign Up');

  return (
    <AuthLayout>
      <AuthScreen
        mode={mode}
        initialRole={initialRole}
        onModeChange={(next) => {
          const href = next === 'signin' ? paths.auth.signIn.href() : paths.auth.signUp.href();
          void navigate(href, { replace: true });
        }}
        onAuthenticated={() => {
          void navigate(paths.home.href(), { replace: true });
        }}
      />
    </AuthLayout>
  );
}
