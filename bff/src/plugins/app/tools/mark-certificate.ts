import fp from 'fastify-plugin';
import { readMarkRootsFile } from '../../../services/mark-certificates/roots';
import { createUntrustedFiles, type UntrustedFiles } from '../../../services/untrusted-files/untrusted-files';

declare module 'fastify' {
  interface FastifyInstance {
    /** Mark certificates and logos from strangers, checked in worker threads with time and memory limits. */
    untrustedFiles: UntrustedFiles;
  }
}

/**
 * The mark-certificate roots (the issuers' plus TOOLS_EXTRA_MARK_ROOTS_FILE) handed to the
 * worker threads that validate certificates and check logos. The threads start when the server
 * starts listening (or with the first file), and stop with the server.
 */
export default fp(
  async function untrustedFiles(fastify) {
    const { extraMarkRootsFile, workers } = fastify.config.tools;
    const files = createUntrustedFiles({ extraMarkRoots: readMarkRootsFile(extraMarkRootsFile), ...workers, log: fastify.log });
    fastify.decorate('untrustedFiles', files);
    fastify.addHook('onListen', () => {
      void files.warmUp();
    });
    fastify.addHook('onClose', () => files.close());
  },
  { name: 'untrusted-files' },
);
