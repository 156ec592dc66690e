import { JOB_TYPES } from '@fabric/contract';
import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { describeEachDatabase } from './support/databases.ts';

// job_type is text checked against the contract's JOB_TYPES: adding a type to the table and running
// `drizzle-kit generate` is all the database needs. This fails when the migrations lag the table.

describeEachDatabase('the job_type column', (database) => {
  it('accepts exactly the contract’s job types, as the migrations left it', async () => {
    await database.buildApp();
    const { db } = await database.connection();
    const result = await db.execute(
      sql`SELECT pg_get_constraintdef(oid) AS definition FROM pg_constraint
          WHERE conname = 'jobs_job_type_known'`,
    );
    const [row] = (result as { rows: { definition: string }[] }).rows;
    const definition = row?.definition ?? '';
    const listed = [...definition.matchAll(/'([a-z_]+)'/g)].map((match) => match[1]);
    expect(listed.sort()).toEqual([...JOB_TYPES].sort());
  });
});
