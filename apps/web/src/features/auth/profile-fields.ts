import { requiredText, type Role } from '@fabric/contract';
import type { z } from 'zod';

export interface ProfileFields {
  name: string;
  organization_name: string;
  domain: string;
  industry: string;
}

/** The profile fields each role must give (at sign-up and when editing the profile). */
const requiredProfileFields: Record<
  Role,
  Partial<Record<keyof ProfileFields, z.ZodType<string>>>
> = {
  node_provider: { name: requiredText('Name') },
  enterprise: {
    organization_name: requiredText('Organization Name'),
    domain: requiredText('Domain'),
    industry: requiredText('Industry'),
  },
};

/** Adds an issue under each required field of `role` that is missing or too long. */
export function checkRequiredProfileFields(
  role: Role,
  values: ProfileFields,
  context: z.RefinementCtx,
): void {
  for (const [field, schema] of Object.entries(requiredProfileFields[role])) {
    const issue = schema.safeParse(values[field as keyof ProfileFields]).error?.issues[0];
    if (issue) context.addIssue({ code: 'custom', path: [field], message: issue.message });
  }
}

/** Trimmed profile fields that belong to `role`; the others are not sent. */
export function profileFieldsOf(role: Role, values: ProfileFields): Partial<ProfileFields> {
  return role === 'enterprise'
    ? {
        organization_name: values.organization_name.trim(),
        domain: values.domain.trim(),
        industry: values.industry.trim(),
      }
    : { name: values.name.trim() };
}
