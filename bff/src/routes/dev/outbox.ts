import { isIP } from 'node:net';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';

/** The latest mails the page lists. */
const OUTBOX_LISTED = 100;

/** An address of this machine: 127.0.0.0/8, ::1, or either mapped. */
function isLoopback(address: string | undefined): boolean {
  if (!address || !isIP(address)) return false;
  const plain = address.startsWith('::ffff:') ? address.slice('::ffff:'.length) : address;
  return plain === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(plain);
}

/**
 * Whether the request comes from this machine itself: its socket's peer and the client it is
 * judged to be (`request.ip`, behind a trusted proxy) are loopback, and no proxy forwarded it (a
 * proxy on this machine is a loopback peer for every visitor), unless TRUST_PROXY trusts it.
 */
export function isLocalRequest(request: FastifyRequest, trustProxy: unknown): boolean {
  const forwarded = ['x-forwarded-for', 'forwarded', 'x-real-ip'].some((name) => request.headers[name] !== undefined);
  // Behind a trusted proxy, request.ip is the client the proxy names; behind another, forwarding is a visitor's.
  if (forwarded && trustProxy === false) return false;
  return isLoopback(request.socket.remoteAddress) && isLoopback(request.ip);
}

/**
 * GET /dev/outbox: the development outbox, newest first, with the links of each mail, so sign-up
 * and password reset can be followed without a mail server. Registered only outside production,
 * and answered only to a client on this machine (issue 31: it lists every user's reset and
 * verification links, and `npm start` runs without NODE_ENV=production); others get 404.
 */
const outbox: FastifyPluginAsync = async (fastify) => {
  fastify.log.warn('development outbox: GET /dev/outbox lists every mail the store sent, to clients on this machine (loopback) only; NODE_ENV=production turns it off');
  fastify.get('/dev/outbox', async (request, reply) => {
    if (!isLocalRequest(request, fastify.config.trustProxy)) return reply.callNotFound();
    const messages = (await fastify.mailer.outbox(OUTBOX_LISTED)).map((mail) => ({
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      links: mail.text.match(/https?:\/\/\S+/g) ?? [],
      createdAt: mail.createdAt,
    }));
    return reply.header('cache-control', 'no-store').send({ mailer: fastify.mailer.kind, messages });
  });
};

export default outbox;
