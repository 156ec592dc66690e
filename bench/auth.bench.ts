// Baseline of the auth hot paths, on loopback only, bounded in time: the real server process on a
// fresh embedded database, autocannon as the client. Run with `npm run bench`.
import autocannon from 'autocannon';
import { startServer } from '../e2e/support/server.ts';
import { summarize } from './summary.ts';

const DURATION_SECONDS = 5;

interface Scenario {
  name: string;
  options: autocannon.Options;
}

const server = await startServer({
  LOG_LEVEL: 'warn',
  AUTH_RATE_LIMIT_PER_IP: '1000000',
  AUTH_RATE_LIMIT_PER_ACCOUNT: '1000000',
});
try {
  const credentials = {
    email: 'bench@example.com',
    password: 'benchmark passphrase',
    role: 'enterprise',
  };
  const registered = await fetch(`${server.url}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(credentials),
  });
  const { access_token: accessToken } = (await registered.json()) as { access_token: string };

  const scenarios: Scenario[] = [
    { name: 'GET /api/health', options: { url: `${server.url}/api/health`, connections: 10 } },
    {
      name: 'GET /api/auth/me (JWT + user and sign-in lookup)',
      options: {
        url: `${server.url}/api/auth/me`,
        connections: 10,
        headers: { authorization: `Bearer ${accessToken}` },
      },
    },
    {
      name: 'POST /api/auth/login (argon2id verify)',
      options: {
        url: `${server.url}/api/auth/login`,
        method: 'POST',
        connections: 4,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: credentials.email, password: credentials.password }),
      },
    },
  ];

  const rows = [];
  for (const scenario of scenarios) {
    const result = await autocannon({ ...scenario.options, duration: DURATION_SECONDS });
    rows.push(summarize(scenario.name, result));
  }
  console.table(rows);
} finally {
  await server.stop();
}
