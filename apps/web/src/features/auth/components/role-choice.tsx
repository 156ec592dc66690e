import type { Role } from '@fabric/contract';
import { BriefcaseBusiness, Cpu, type LucideIcon } from 'lucide-react';
import { useId, type ComponentProps } from 'react';
import { cn } from '@/lib/utils';

const roleOptions: { role: Role; title: string; description: string; icon: LucideIcon }[] = [
  {
    role: 'node_provider',
    title: 'Share my compute',
    description: 'Earn from the idle time of your devices.',
    icon: Cpu,
  },
  {
    role: 'enterprise',
    title: 'Run AI workloads',
    description: 'Submit AI/ML jobs and pay for actual usage.',
    icon: BriefcaseBusiness,
  },
];

/**
 * The sign-up role as a group of native radio buttons drawn as cards: arrow keys move the choice,
 * and each radio's accessible name is the card's title.
 */
export function RoleChoice(inputProps: Omit<ComponentProps<'input'>, 'type' | 'value'>) {
  const id = useId();
  return (
    <div role="radiogroup" aria-labelledby={`${id}-legend`} className="grid gap-2">
      <span id={`${id}-legend`} className="text-sm font-medium">
        I want to
      </span>
      <div className="grid grid-cols-2 gap-3">
        {roleOptions.map(({ role, title, description, icon: Icon }) => {
          const optionId = `${id}-${role}`;
          return (
            <label
              key={role}
              htmlFor={optionId}
              className={cn(
                'relative flex cursor-pointer flex-col gap-2 rounded-lg border bg-card p-3 text-left transition-colors sm:p-4',
                'hover:border-primary/50 hover:bg-accent/40',
                'has-checked:border-primary has-checked:bg-accent/60 has-checked:ring-1 has-checked:ring-primary',
                'has-focus-visible:ring-3 has-focus-visible:ring-ring/50',
              )}
            >
              <input
                id={optionId}
                type="radio"
                value={role}
                aria-labelledby={`${optionId}-title`}
                aria-describedby={`${optionId}-description`}
                className="peer sr-only"
                {...inputProps}
              />
              <span className="flex size-8 items-center justify-center rounded-md bg-secondary text-secondary-foreground peer-checked:bg-primary peer-checked:text-primary-foreground">
                <Icon aria-hidden="true" className="size-4" />
              </span>
              <span id={`${optionId}-title`} className="text-sm font-semibold">
                {title}
              </span>
              <span
                id={`${optionId}-description`}
                className="text-xs leading-snug text-muted-foreground"
              >
                {description}
              </span>
            </label>
          );
        })}
      </div>
    </div>
  );
}
