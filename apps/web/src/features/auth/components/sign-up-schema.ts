import {
  emailSchema,
  newPasswordSchema,
  roleSchema,
  type RegisterRequest,
  type Role,
} from '@fabric/contract';
import { z } from 'zod';
import { checkRequiredProfileFields, profileFieldsOf, type ProfileFields } from '../profile-fields';

export interface SignUpFormValues extends ProfileFields {
  role: Role;
  email: string;
  password: string;
}

/**
 * Checks the whole form at once (so every message shows on the first submit) and turns it into the
 * register payload: email, password, role and the chosen role's profile fields.
 */
export const signUpFormSchema = z
  .object({
    role: roleSchema,
    email: emailSchema,
    password: newPasswordSchema,
    name: z.string(),
    organization_name: z.string(),
    domain: z.string(),
    industry: z.string(),
  })
  .superRefine((values, context) => {
    checkRequiredProfileFields(values.role, values, context);
  })
  .transform((values): RegisterRequest => ({
    email: values.email,
    password: values.password,
    role: values.role,
    ...profileFieldsOf(values.role, values),
  }));
