import { createPaymentRepository } from '../db/payment-repository';
import { once, processWiring } from './wiring';

export const paymentRepository = /* @__PURE__ */ once(() => createPaymentRepository(processWiring().db, processWiring().tableName));
