import { stat } from 'node:fs/promises';
import path from 'node:path';
import { apiPaths, authResponseSchema } from '@fabric/contract';
import { expect, it } from 'vitest';
import { bearer, login, registerUser, TEST_PASSWORD } from './support/auth.ts';
import { describeEachDatabase } from './support/databases.ts';

describeEachDatabase('restarting the server', (database) => {
  it('keeps accounts, sessions and the generated signing secret across a restart', async () => {
    const dataDir = await database.temporaryDirectory();
    // No JWT secret and no shared connection: the app opens its own database and makes a secret.
    const options = {
      config: { dataDir, jwtSecret: undefined, ...database.ownedDatabaseConfig() },
    };

    const first = await database.buildAppWith(options);
    const { email, auth } = await registerUser(first, { role: 'enterprise', name: 'Persistent' });
    await first.close();

    const secrets = await stat(path.join(dataDir, 'secrets.json'));
    expect(secrets.mode & 0o777).toBe(0o600);

    const second = await database.buildAppWith(options);
    const response = await login(second, { email, password: TEST_PASSWORD });
    expect(response.statusCode).toBe(200);
    expect(authResponseSchema.parse(response.json()).user_id).toBe(auth.user_id);

    // Tokens issued before the restart still work: same secret, same refresh-token rows.
    const me = await second.inject({ url: apiPaths.auth.me, headers: bearer(auth.access_token) });
    expect(me.json()).toMatchObject({ email, name: 'Persistent' });
    const refreshed = await second.inject({
      method: 'POST',
      url: apiPaths.auth.refresh,
      payload: { refresh_token: auth.refresh_token },
    });
    expect(refreshed.statusCode).toBe(200);
  });
});
