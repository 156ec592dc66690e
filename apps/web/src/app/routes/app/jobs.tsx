import { ListChecks, Plus } from 'lucide-react';
import { Link } from 'react-router';
import { EmptyState } from '@/components/empty-state';
import { PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { useStoredRole } from '@/hooks/use-stored-session';

export function JobsRoute() {
  const role = useStoredRole();
  return (
    <>
      <PageHeader
        title="My Jobs"
        description="Every compute job you have submitted."
        actions={
          role === 'enterprise' ? (
            <Button asChild>
              <Link to={paths.jobs.submit.href()}>
                <Plus aria-hidden="true" />
                Submit New Job
              </Link>
            </Button>
          ) : null
        }
      />
      <EmptyState icon={ListChecks} title="Your jobs will appear here">
        <p>
          Each job will be listed with its type, status, cost and the node that ran it, grouped into
          All, Running, Completed and Failed.
        </p>
      </EmptyState>
    </>
  );
}
