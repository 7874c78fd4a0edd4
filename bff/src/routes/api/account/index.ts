import type { FastifyPluginAsync } from 'fastify';
import billing from './billing';
import checkout from './checkout';
import contacts from './contacts';
import monitors from './monitors';
import orders from './orders';
import organizations from './organizations';
import profile from './profile';
import support from './support';
import transactions from './transactions';

/** /api/account/*: the sessions plugin answers 401 without a session and 403 for a write without the CSRF header. */
const account: FastifyPluginAsync = async (fastify) => {
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
