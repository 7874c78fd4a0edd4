import fp from 'fastify-plugin';
import { manualFulfilment, type Fulfilment } from '../../services/fulfilment/fulfilment';

declare module 'fastify' {
  interface FastifyInstance {
    fulfilment: Fulfilment;
  }
}

/** Manual fulfilment: the one fulfiller there is today (see services/fulfilment). */
export default fp(
  async function fulfilment(fastify) {
    fastify.decorate('fulfilment', manualFulfilment(fastify.orders, fastify.log));
  },
  { name: 'fulfilment', dependencies: ['orders'] },
);
