import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PASSWORD_HASHING } from '../lib/password-hasher.ts';
import { ConfigError, loadConfig } from './env.ts';

describe('loadConfig', () => {
  it('uses the documented defaults for an empty environment', () => {
    const config = loadConfig({}, { INIT_CWD: '/srv/fabric' });
    expect(config).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      dataDir: '/srv/fabric/data',
      databaseUrl: undefined,
      jwtSecret: undefined,
      publicUrl: 'http://localhost:8080',
      smtpUrl: undefined,
      logLevel: 'info',
      trustProxy: false,
      accessTokenTtlSeconds: 900,
      refreshTokenTtlDays: 30,
      passwordResetTtlMinutes: 30,
      authRateLimitPerIp: 30,
      authRateLimitPerAccount: 5,
      passwordHashing: DEFAULT_PASSWORD_HASHING,
    });
    expect(config.webDistDir).toBe(path.resolve(import.meta.dirname, '../../../web/dist'));
  });

  it('reads every variable, resolving relative paths against the directory npm was run from', () => {
    const config = loadConfig(
      {},
      {
        INIT_CWD: '/home/ada/fabric',
        PORT: '9000',
        HOST: '127.0.0.1',
        DATA_DIR: 'var/fabric',
        DATABASE_URL: 'postgres://fabric@db:5432/fabric',
        JWT_SECRET: 's'.repeat(40),
        PUBLIC_URL: 'https://fabric.example.com/',
        SMTP_URL: 'smtp://mail.example.com:587',
        MAIL_FROM: 'Fabric <hello@fabric.example.com>',
        WEB_DIST_DIR: '/opt/fabric/web',
        LOG_LEVEL: 'debug',
        TRUST_PROXY: 'true',
        ACCESS_TOKEN_TTL_SECONDS: '60',
        REFRESH_TOKEN_TTL_DAYS: '7',
        PASSWORD_RESET_TTL_MINUTES: '10',
        AUTH_RATE_LIMIT_PER_IP: '100',
        AUTH_RATE_LIMIT_PER_ACCOUNT: '5',
      },
    );
    expect(config).toMatchObject({
      port: 9000,
      host: '127.0.0.1',
      dataDir: '/home/ada/fabric/var/fabric',
      databaseUrl: 'postgres://fabric@db:5432/fabric',
      publicUrl: 'https://fabric.example.com',
      smtpUrl: 'smtp://mail.example.com:587',
      mailFrom: 'Fabric <hello@fabric.example.com>',
      webDistDir: '/opt/fabric/web',
      logLevel: 'debug',
      trustProxy: true,
      accessTokenTtlSeconds: 60,
      refreshTokenTtlDays: 7,
      passwordResetTtlMinutes: 10,
      authRateLimitPerIp: 100,
      authRateLimitPerAccount: 5,
    });
  });

  it('derives the public URL and sender from the port when they are not given', () => {
    const config = loadConfig({ port: 18080 }, {});
    expect(config.publicUrl).toBe('http://localhost:18080');
    expect(config.mailFrom).toBe('Fabric <no-reply@localhost>');
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig({}, { PORT: '', DATABASE_URL: '', JWT_SECRET: '' })).toMatchObject({
      port: 8080,
      databaseUrl: undefined,
      jwtSecret: undefined,
    });
  });

  it('lets overrides win over the environment', () => {
    const config = loadConfig(
      { authRateLimitPerIp: 2, dataDir: '/tmp/x' },
      { AUTH_RATE_LIMIT_PER_IP: '50' },
    );
    expect(config.authRateLimitPerIp).toBe(2);
    expect(config.dataDir).toBe('/tmp/x');
  });

  it('refuses invalid values with one line per problem naming the variable', () => {
    let error: unknown;
    try {
      loadConfig(
        {},
        {
          PORT: 'eighty',
          DATABASE_URL: 'mysql://nope',
          JWT_SECRET: 'short',
          AUTH_RATE_LIMIT_PER_IP: '0',
          LOG_LEVEL: 'loud',
        },
      );
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(problems).toEqual(
      expect.arrayContaining([
        'PORT must be a number',
        'DATABASE_URL must start with postgres:// or postgresql://',
        'JWT_SECRET must be at least 32 characters',
        'AUTH_RATE_LIMIT_PER_IP must be above 0',
        'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent',
      ]),
    );
  });

  it('caps event streams at 10 per user and per address unless told otherwise', () => {
    expect(loadConfig({}, {})).toMatchObject({ eventStreamsPerUser: 10, eventStreamsPerIp: 10 });
    expect(
      loadConfig({}, { EVENT_STREAMS_PER_USER: '3', EVENT_STREAMS_PER_IP: '50' }),
    ).toMatchObject({ eventStreamsPerUser: 3, eventStreamsPerIp: 50 });
    expect(() => loadConfig({}, { EVENT_STREAMS_PER_IP: '0' })).toThrow(
      'EVENT_STREAMS_PER_IP must be above 0',
    );
  });

  it('is in production only when NODE_ENV is production', () => {
    expect(loadConfig({}, {}).isProduction).toBe(false);
    expect(loadConfig({}, { NODE_ENV: 'development' }).isProduction).toBe(false);
    expect(loadConfig({}, { NODE_ENV: 'production' }).isProduction).toBe(true);
  });
});
