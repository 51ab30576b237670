import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { redactUri } from '../../src/store/neo4j/driver.js';

const base = { ENGRAM_LOG_LEVEL: 'silent' };

describe('ENGRAM_STORE=neo4j configuration', () => {
  it('is a config error naming NEO4J_URI when the URI is missing', () => {
    expect(() => loadConfig({ ...base, ENGRAM_STORE: 'neo4j' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, ENGRAM_STORE: 'neo4j' })).toThrow(
      /NEO4J_URI is required when ENGRAM_STORE=neo4j/,
    );
  });

  it('names a rejected NEO4J_URI without the credentials it carries', () => {
    const read = () => loadConfig({ ...base, ENGRAM_STORE: 'neo4j', NEO4J_URI: 'http://neo4j:hunter2@db:7687' });
    expect(read).toThrow(
      /^Invalid configuration: NEO4J_URI=http:\/\/\*\*\*@db:7687: must be a neo4j:\/\/ or bolt:\/\/ URI/,
    );
    expect(read).not.toThrow(/hunter2/);
  });

  it('reads the connection and the bounded waits, with their defaults', () => {
    const config = loadConfig({
      ...base,
      ENGRAM_STORE: 'neo4j',
      NEO4J_URI: 'neo4j+s://abc123.databases.neo4j.io',
      NEO4J_PASSWORD: 'secret',
    });
    expect(config.store).toEqual({
      kind: 'neo4j',
      uri: 'neo4j+s://abc123.databases.neo4j.io',
      user: 'neo4j',
      password: 'secret',
      database: null,
      connectionAcquisitionTimeoutMs: 2000,
      connectionTimeoutMs: 3000,
      maxTransactionRetryTimeMs: 5000,
      transactionTimeoutMs: 5000,
    });
  });

  it('takes every setting from its variable', () => {
    const config = loadConfig({
      ...base,
      ENGRAM_STORE: 'neo4j',
      NEO4J_URI: 'bolt://localhost:7687',
      NEO4J_USER: 'engram',
      NEO4J_DATABASE: 'memories',
      NEO4J_CONNECTION_ACQUISITION_TIMEOUT_MS: '1000',
      NEO4J_CONNECTION_TIMEOUT_MS: '1500',
      NEO4J_MAX_TRANSACTION_RETRY_TIME_MS: '0',
      NEO4J_TRANSACTION_TIMEOUT_MS: '2500',
    });
    expect(config.store).toMatchObject({
      user: 'engram',
      password: null,
      database: 'memories',
      connectionAcquisitionTimeoutMs: 1000,
      connectionTimeoutMs: 1500,
      maxTransactionRetryTimeMs: 0,
      transactionTimeoutMs: 2500,
    });
  });

  it.each([
    ['NEO4J_URI', 'http://localhost:7474'],
    ['NEO4J_URI', 'localhost:7687'],
    ['NEO4J_DATABASE', 'my_db; DROP'],
    ['NEO4J_TRANSACTION_TIMEOUT_MS', 'soon'],
  ])('rejects a bad %s, naming it', (variable, value) => {
    expect(() =>
      loadConfig({ ...base, ENGRAM_STORE: 'neo4j', NEO4J_URI: 'neo4j://localhost', [variable]: value }),
    ).toThrow(new RegExp(variable));
  });

  it('ignores the NEO4J_ variables for the SQLite store', () => {
    expect(loadConfig({ ...base, NEO4J_URI: 'neo4j://localhost' }).store.kind).toBe('sqlite');
  });
});

describe('redactUri', () => {
  it('drops credentials from a URI before it is logged', () => {
    expect(redactUri('neo4j+s://neo4j:secret@abc.databases.neo4j.io:7687')).toBe(
      'neo4j+s://abc.databases.neo4j.io:7687',
    );
    expect(redactUri('bolt://localhost:7687')).toBe('bolt://localhost:7687');
  });
});
