import type { RouteObject } from 'react-router';

import { lazyPage } from '@/lib/lazy-page';
import { paths } from '@/lib/paths';

/** The public pages (no sign-in), composed in app/router.tsx. */
export const authRoutes: RouteObject[] = [
  { path: paths.login, ...lazyPage(() => import('@/features/auth/LoginPage'), 'LoginPage') },
  { path: paths.signup, ...lazyPage(() => import('@/features/auth/SignupPage'), 'SignupPage') },
  {
    path: paths.verifyEmailConfirm,
    ...lazyPage(() => import('@/features/auth/VerifyEmailConfirmPage'), 'VerifyEmailConfirmPage'),
  },
  {
    path: paths.verifyEmailSent,
    ...lazyPage(() => import('@/features/auth/VerifyEmailSentPage'), 'VerifyEmailSentPage'),
  },
  {
    path: paths.verifyEmailResend,
    ...lazyPage(() => import('@/features/auth/VerifyEmailResendPage'), 'VerifyEmailResendPage'),
  },
  {
    path: paths.retrieveUsername,
    ...lazyPage(() => import('@/features/auth/RetrieveUsernamePage'), 'RetrieveUsernamePage'),
  },
  {
    path: paths.forgotPassword,
    ...lazyPage(() => import('@/features/auth/ForgotPasswordPage'), 'ForgotPasswordPage'),
  },
  {
    path: paths.resetPasswordConfirm,
    ...lazyPage(() => import('@/features/auth/ResetPasswordConfirmPage'), 'ResetPasswordConfirmPage'),
  },
  {
    path: paths.ssoCallback,
    ...lazyPage(() => import('@/features/auth/ProviderCallbackPage'), 'SsoCallbackPage'),
  },
  {
    path: paths.oauthCallback,
    ...lazyPage(() => import('@/features/auth/ProviderCallbackPage'), 'OAuthCallbackPage'),
  },
  {
    path: '/link-identity/:token',
    ...lazyPage(() => import('@/features/auth/link-identity'), 'LinkIdentityPage'),
  },
  {
    path: paths.workos,
    ...lazyPage(() => import('@/features/auth/WorkosRedirectPage'), 'WorkosRedirectPage'),
  },
];
