import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The bff's own version, from its package.json, as /api/health reports it. */
export const bffVersion: string = (JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')) as { version: string }).version;
