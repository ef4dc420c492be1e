import { createSettlementRepository } from '../db/settlement-repository';
import { once, processWiring } from './wiring';

export const settlementServices = /* @__PURE__ */ once(() => createSettlementRepository(processWiring().db, processWiring().tableName));
