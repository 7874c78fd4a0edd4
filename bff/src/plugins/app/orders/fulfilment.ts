import type { ValidationStep } from '@bimi/contracts/orders';
import type { FastifyBaseLogger } from 'fastify';
import fp from 'fastify-plugin';
import { orderNumber } from '../../../services/orders/order-rows';
import type { Orders } from './orders';

declare module 'fastify' {
  interface FastifyInstance {
    fulfilment: Fulfilment;
  }
}

export type StepState = 'waiting' | 'in-progress' | 'done' | 'failed';

/**
 * Who validates and issues a paid certificate order. The store hands it an order once it is paid
 * and has its details; the fulfiller records each validation step as it goes and, at the end, the
 * issuance, which makes the order active. The default is a person (manual fulfilment, through the
 * `orders` command); a certificate authority's API can take its place behind the same interface.
 */
export interface Fulfilment {
  readonly name: string;
  /** A paid certificate order with its details: validation starts. Called again after a details change. */
  submit(orderId: string): Promise<void>;
  recordStep(orderId: string, step: Exclude<ValidationStep, 'issued'>, state: StepState, note: string | null): Promise<void>;
  /** The certificate is issued: the order becomes active. */
  issue(orderId: string, certificateExpiresAt: string | null): Promise<void>;
}

/** An operator validates by hand and records each step with `pnpm --filter bff orders step|issue …`. */
export function manualFulfilment(orders: Orders, log: Pick<FastifyBaseLogger, 'info'>): Fulfilment {
  return {
    name: 'manual',
    async submit(orderId) {
      await orders.startValidation(orderId);
      const row = await orders.row(orderId);
      const number = row ? orderNumber(row.number) : orderId;
      log.info(
        { orderId, order: number },
        `order ${number} is paid and has its details: validate it, then record each step with \`pnpm --filter bff orders step ${number} <step> <state>\` and issuance with \`pnpm --filter bff orders issue ${number}\``,
      );
    },
    async recordStep(orderId, step, state, note) {
      await orders.setValidationStep(orderId, step, state, note);
    },
    async issue(orderId, certificateExpiresAt) {
      await orders.markIssued(orderId, certificateExpiresAt);
    },
  };
}

/** `fastify.fulfilment`: manual fulfilment, the one fulfiller there is today. */
export default fp(
  async function fulfilment(fastify) {
    fastify.decorate('fulfilment', manualFulfilment(fastify.orders, fastify.log));
  },
  { name: 'fulfilment', dependencies: ['orders'] },
);
