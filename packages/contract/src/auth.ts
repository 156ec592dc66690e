import { z } from 'zod';
import { ROLES } from './constants.ts';
import {
  emailSchema,
  idSchema,
  newPasswordSchema,
  optionalText,
  passwordPresentSchema,
  safeString,
  timestampSchema,
} from './fields.ts';

export const roleSchema = z.enum(ROLES, { error: 'Role must be node_provider or enterprise' });

export const loginRequestSchema = z.object({
  email: emailSchema,
  password: passwordPresentSchema,
});
export type LoginRequest = z.input<typeof loginRequestSchema>;

/**
 * The spec's client sends email, password and role; the profile fields its form collects
 * are accepted too so that the name and organization it asks for are not thrown away.
 */
export const registerRequestSchema = z.object({
  email: emailSchema,
  password: newPasswordSchema,
  role: roleSchema,
  name: optionalText('Name'),
  organization_name: optionalText('Organization Name'),
  domain: optionalText('Domain'),
  industry: optionalText('Industry'),
});
export type RegisterRequest = z.input<typeof registerRequestSchema>;

export const authResponseSchema = z.object({
  access_token: z.string(),
  refresh_token: z.string(),
  token_type: z.literal('Bearer'),
  /** Seconds until the access token expires. */
  expires_in: z.number().int(),
  user_id: idSchema,
  email: z.string(),
  role: roleSchema,
});
export type AuthResponse = z.infer<typeof authResponseSchema>;

/** Tokens the server issued are 43 characters; anything far longer is not one of them. */
const TOKEN_MAX_LENGTH = 200;

export const refreshRequestSchema = z.object({
  refresh_token: safeString('Refresh token', TOKEN_MAX_LENGTH, {
    error: 'Refresh token is required',
  }).min(1, 'Refresh token is required'),
});
export type RefreshRequest = z.infer<typeof refreshRequestSchema>;

export const logoutRequestSchema = refreshRequestSchema;
export type LogoutRequest = RefreshRequest;

export const userSchema = z.object({
  id: idSchema,
  email: z.string(),
  role: roleSchema,
  name: z.string().nullable(),
  organization_name: z.string().nullable(),
  domain: z.string().nullable(),
  industry: z.string().nullable(),
  created_at: timestampSchema,
});
export type User = z.infer<typeof userSchema>;

export const updateProfileRequestSchema = z
  .object({
    name: optionalText('Name'),
    organization_name: optionalText('Organization Name'),
    domain: optionalText('Domain'),
    industry: optionalText('Industry'),
  })
  .refine((body) => Object.keys(body).length > 0, {
    message: 'Give at least one of name, organization_name, domain, industry',
  });
export type UpdateProfileRequest = z.input<typeof updateProfileRequestSchema>;

export const changePasswordRequestSchema = z.object({
  current_password: passwordPresentSchema,
  new_password: newPasswordSchema,
});
export type ChangePasswordRequest = z.infer<typeof changePasswordRequestSchema>;

export const forgotPasswordRequestSchema = z.object({ email: emailSchema });
export type ForgotPasswordRequest = z.input<typeof forgotPasswordRequestSchema>;

export const resetPasswordRequestSchema = z.object({
  token: safeString('Reset token', TOKEN_MAX_LENGTH, { error: 'Reset token is required' }).min(
    1,
    'Reset token is required',
  ),
  new_password: newPasswordSchema,
});
export type ResetPasswordRequest = z.infer<typeof resetPasswordRequestSchema>;

/**
 * DELETE /api/auth/account: closing an account needs its password again. Any balance left is
 * kept in the ledger as unclaimed funds (support can return it), never erased.
 */
export const deleteAccountRequestSchema = z.object({
  current_password: passwordPresentSchema,
  /** The caller typed the confirmation word. */
  confirm: z.literal('DELETE', { error: 'Type DELETE to confirm' }),
});
export type DeleteAccountRequest = z.infer<typeof deleteAccountRequestSchema>;

/** Answer of calls that only confirm (password change, forgot, reset, logout). */
export const messageResponseSchema = z.object({ message: z.string() });
export type MessageResponse = z.infer<typeof messageResponseSchema>;
