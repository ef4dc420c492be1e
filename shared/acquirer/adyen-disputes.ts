import type Client from '@adyen/api-library/lib/src/client';
import { DisputesApi } from '@adyen/api-library/lib/src/services/disputes/disputesApi';
import type { DisputeAcquirer } from '../domain/acquirer';
import { defendRequest, defenseReasons, disputeRequest, settled, supplyRequest } from './adyen-transformers';

/** Answering disputes through Adyen's Dispute Service v30 (product-decisions §13). */
export function adyenDisputes(client: Client): DisputeAcquirer {
  const disputes = new DisputesApi(client);
  return {
    async accept(dispute) {
      settled((await disputes.acceptDispute(disputeRequest(dispute))).disputeServiceResult);
    },
    async defenseReasons(dispute) {
      const answer = await disputes.retrieveApplicableDefenseReasons(disputeRequest(dispute));
      settled(answer.disputeServiceResult);
      return defenseReasons(answer);
    },
    async supplyDefenseDocument(dispute, document) {
      settled((await disputes.supplyDefenseDocument(supplyRequest(dispute, document))).disputeServiceResult);
    },
    async defend(dispute, reasonCode) {
      settled((await disputes.defendDispute(defendRequest(dispute, reasonCode))).disputeServiceResult);
    },
  };
}
