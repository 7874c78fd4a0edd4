// The entry of the untrusted-files worker threads (work-pool.ts) when the bff runs as TypeScript
// (tsx in development, jest in tests). A worker thread inherits no loader: neither the main
// thread's `--import tsx` nor jest's @swc/jest transform. So each thread registers tsx's require
// hook itself (the bff's .ts files are CommonJS) and requires worker-thread.ts. (tsx's ES-module
// register works too, but doubles a thread's start to over a second.) The compiled server build
// has its own bundled dist/worker.cjs beside dist/server.js.
import { createRequire } from 'node:module';
import { register } from 'tsx/cjs/api';

register();
const thread = createRequire(import.meta.url)('./worker-thread.ts');

export const { ping, validateMarkCertificate, checkLogo } = thread;
