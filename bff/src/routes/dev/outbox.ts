import type { FastifyPluginAsync } from 'fastify';

/**
 * GET /dev/outbox: the development outbox, newest first, with the links of each mail, so sign-up
 * and password reset can be followed without a mail server. Registered only outside production.
 */
const outbox: FastifyPluginAsync = async (fastify) => {
  fastify.get('/dev/outbox', async (request, reply) => {
    const rows = await fastify.db.selectFrom('outbox_messages').selectAll().orderBy('created_at', 'desc').limit(100).execute();
    const messages = rows.map((row) => ({
      to: row.recipient,
      subject: row.subject,
      text: row.text,
      links: row.text.match(/https?:\/\/\S+/g) ?? [],
      createdAt: row.created_at,
    }));
    return reply.header('cache-control', 'no-store').send({ mailer: fastify.mailer.kind, messages });
  });
};

export default outbox;
