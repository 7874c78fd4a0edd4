import type { FastifyPluginAsync } from 'fastify';
import nextAuth from './next-auth';
import partnerApplications from './partner-applications';
import passwordReset from './password-reset';
import signUp from './sign-up';

/**
 * /api/auth: the endpoints NextAuth's client calls (spec §7), and the JSON endpoints of sign-up,
 * verification, password reset and partner sign-up. The JSON endpoints take the CSRF token in a
 * header, which the sessions plugin checks as for every write route.
 */
const auth: FastifyPluginAsync = async (fastify) => {
  await fastify.register(nextAuth);
  await fastify.register(signUp);
  await fastify.register(passwordReset);
  await fastify.register(partnerApplications);
};

export default auth;
