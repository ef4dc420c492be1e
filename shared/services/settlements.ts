import { createSettlementRepository } from '../db/settlement-repository';
import { once, processWiring } from './wiring';

export const settlementRepository = /* @__PURE__ */ once(() => createSettlementRepository(processWiring().db, processWiring().tableName));
