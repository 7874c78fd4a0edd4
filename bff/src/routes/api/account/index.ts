import type { FastifyPluginAsync } from 'fastify';
import { ACCOUNT_BASE_PATH } from '@bimi/contracts/api-paths';
import billing from './billing';
import checkout from './checkout';
import contacts from './contacts';
import monitors from './monitors';
import orders from './orders';
import organizations from './organizations';
import profile from './profile';
import support from './support';
import transactions from './transactions';

/** /api/account/*: withSessions answers 401 without a session; the sessions plugin 403 for a write without the CSRF header. */
const account: FastifyPluginAsync = async (fastify) => {
  // A signed-in answer is its user's alone: no cache keeps it, the browser's included (issue 31).
  fastify.addHook('onSend', async (_request, reply, payload) => {
    reply.header('cache-control', 'private, no-store');
    return payload;
  });
  // Any other path under /api/account is this group's too, so it is refused without a session
  // (401) like the others: a visitor learns nothing of which account paths exist.
  fastify.all(`${ACCOUNT_BASE_PATH}/*`, async (_request, reply) => reply.code(404).send({ message: 'Not found' }));
  await fastify.register(profile);
  await fastify.register(organizations);
  await fastify.register(contacts);
  await fastify.register(support);
  await fastify.register(orders);
  await fastify.register(transactions);
  await fastify.register(checkout);
  await fastify.register(billing);
  await fastify.register(monitors);
};

export default account;
