import type Client from '@adyen/api-library/lib/src/client';
import { DisputesApi } from '@adyen/api-library/lib/src/services/disputes/disputesApi';
import type { DisputeAcquirer } from '../domain/acquirer';
import { defendRequest, defenseReasons, disputeRequest, settled, supplyRequest } from './adyen-transformers';

/**
 * The files Adyen takes as defense documents (docs.adyen.com, "Defense requirements": JPG and
 * TIFF up to 10 MB, PDF up to 2 MB; no PNG), read as decimal megabytes, the stricter reading.
 */
const DEFENSE_DOCUMENT_FORMATS = { 'application/pdf': 2_000_000, 'image/jpeg': 10_000_000, 'image/tiff': 10_000_000 } as const;

/** Answering disputes through Adyen's Dispute Service v30 (product-decisions §13). */
export function adyenDisputes(client: Client): DisputeAcquirer {
  const disputes = new DisputesApi(client);
  return {
    documentFormats: DEFENSE_DOCUMENT_FORMATS,
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
