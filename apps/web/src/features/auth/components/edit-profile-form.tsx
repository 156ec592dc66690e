import { zodResolver } from '@hookform/resolvers/zod';
import { optionalText, type Role, type UpdateProfileRequest, type User } from '@fabric/contract';
import { useForm, type Path } from 'react-hook-form';
import { toast } from 'sonner';
import { z } from 'zod';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { TextField } from '@/components/ui/form-field';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-client';
import { showServerFieldError } from '@/lib/form-errors';
import { useUpdateProfile } from '../api/update-profile';
import { checkRequiredProfileFields, profileFieldsOf, type ProfileFields } from '../profile-fields';

// Same trimming and length limits as the server's optional profile fields.
const profileTextSchema = z.object({
  name: optionalText('Name').unwrap(),
  organization_name: optionalText('Organization Name').unwrap(),
  domain: optionalText('Domain').unwrap(),
  industry: optionalText('Industry').unwrap(),
});

/** The fields sign-up requires for the role stay required; only the role's fields are sent. */
function profileFormSchema(role: Role) {
  return profileTextSchema
    .superRefine((values, context) => {
      checkRequiredProfileFields(role, values, context);
    })
    .transform((values): UpdateProfileRequest =>
      role === 'enterprise'
        ? { name: values.name.trim(), ...profileFieldsOf(role, values) }
        : profileFieldsOf(role, values),
    );
}

const profileFields = [
  'name',
  'organization_name',
  'domain',
  'industry',
] as const satisfies readonly Path<ProfileFields>[];

export function EditProfileForm({ user }: { user: User }) {
  const isEnterprise = user.role === 'enterprise';
  const {
    register,
    handleSubmit,
    setError,
    reset,
    getValues,
    formState: { errors, isDirty },
  } = useForm<ProfileFields, unknown, UpdateProfileRequest>({
    resolver: zodResolver(profileFormSchema(user.role)),
    defaultValues: {
      name: user.name ?? '',
      organization_name: user.organization_name ?? '',
      domain: user.domain ?? '',
      industry: user.industry ?? '',
    },
  });
  const updateProfile = useUpdateProfile();

  return (
    <Card>
      <CardHeader>
        <CardTitle>Edit profile</CardTitle>
        <CardDescription>
          {isEnterprise
            ? 'How your organization appears across Fabric.'
            : 'The name shown on your account.'}
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form
          noValidate
          aria-label="Edit profile"
          className="grid gap-5"
          onSubmit={(event) =>
            void handleSubmit((profile) => {
              updateProfile.mutate(profile, {
                onSuccess: () => {
                  toast.success('Profile updated', {
                    description: 'Your changes have been saved.',
                  });
                  reset(getValues());
                },
                onError: (error) => {
                  showServerFieldError(error, setError, profileFields);
                  toast.error('Could not update profile', {
                    description: errorMessage(error, 'Please try again.'),
                  });
                },
              });
            })(event)
          }
        >
          <div className="grid gap-5 sm:grid-cols-2">
            <TextField
              label="Name"
              autoComplete="name"
              error={errors.name?.message}
              {...register('name')}
            />
            {isEnterprise ? (
              <>
                <TextField
                  label="Organization Name"
                  autoComplete="organization"
                  error={errors.organization_name?.message}
                  {...register('organization_name')}
                />
                <TextField
                  label="Domain"
                  autoComplete="url"
                  error={errors.domain?.message}
                  {...register('domain')}
                />
                <TextField
                  label="Industry"
                  error={errors.industry?.message}
                  {...register('industry')}
                />
              </>
            ) : null}
          </div>
          <div className="flex justify-end">
            <Button type="submit" disabled={!isDirty || updateProfile.isPending}>
              {updateProfile.isPending ? <Spinner /> : null}
              Save profile
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
