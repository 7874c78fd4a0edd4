import { databaseEndpointOf, isDatabaseUnavailable, ServiceUnavailableError, unavailableService } from './unavailable';

const socketError = (code: string, fields: Record<string, unknown> = {}) => Object.assign(new Error(`connect ${code}`), { code, ...fields });

describe('which failures are a service away (503)', () => {
  const database = databaseEndpointOf('postgres://postgres@db.internal:6543/store');

  it('reads where PostgreSQL listens, 5432 when the URL names no port; none on SQLite', () => {
    expect(database).toEqual({ host: 'db.internal', port: 6543 });
    expect(databaseEndpointOf('postgres://localhost/store')).toEqual({ host: 'localhost', port: 5432 });
    expect(databaseEndpointOf(undefined)).toBeNull();
  });

  it("takes the database's own socket errors, PostgreSQL's shutdown codes and node-postgres's lost connections", () => {
    expect(unavailableService(socketError('ECONNREFUSED', { address: '10.0.0.5', port: 6543 }), database)).toBe('database');
    expect(unavailableService(socketError('ENOTFOUND', { hostname: 'db.internal' }), database)).toBe('database');
    expect(unavailableService(socketError('ECONNRESET'), database)).toBe('database');
    expect(unavailableService(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }), database)).toBe('database');
    expect(unavailableService(new Error('Connection terminated unexpectedly'), database)).toBe('database');
  });

  it("never calls another service's socket error a database outage", () => {
    expect(unavailableService(socketError('ECONNREFUSED', { address: '10.0.0.9', port: 587 }), database)).toBeUndefined();
    expect(unavailableService(socketError('ENOTFOUND', { hostname: 'smtp.example.net' }), database)).toBeUndefined();
    expect(unavailableService(socketError('ECONNRESET', { address: '10.0.0.9' }), database)).toBeUndefined();
    // On the embedded SQLite database there is no database socket at all.
    expect(unavailableService(socketError('ECONNREFUSED', { port: 5432 }), null)).toBeUndefined();
    expect(unavailableService(new Error('syntax error at or near "selct"'), database)).toBeUndefined();
  });

  it('answers a stated outage as it names it, and counts any socket error of a call known to be the database', () => {
    expect(unavailableService(new ServiceUnavailableError('sessions'), null)).toBe('sessions');
    expect(isDatabaseUnavailable(socketError('ECONNREFUSED', { port: 587 }))).toBe(true);
  });
});
