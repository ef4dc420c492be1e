import { AcquirerRefusedError, AcquirerUnavailableError, type DefenseDocument, type DefenseReason, type DisputeAcquirer } from '../../../shared/domain/acquirer';
import { dueReminder, openChargeback, reminded, transitionChargeback, type Chargeback, type ChargebackStatus, type Evidence } from '../../../shared/domain/chargebacks';
import { chooseDefense, newDisputeDocument, type DefenseRenderer, type DisputeDocument, type DocumentStore, type EvidenceStatement } from '../../../shared/domain/dispute-documents';
import type { Principal } from '../../../shared/auth/principal';
import { BusinessRuleError } from '../../../shared/errors';
import { acceptChargeback, disputeChargeback, type AnswerDeps } from '../../../shared/use-cases/chargeback-answers';
import { aChargeback, aPayment, urls } from './fixtures';

/**
 * Answers to a chargeback (product-decisions §13) against in-memory fakes of their ports: in live
 * mode the acquirer takes the answer first and the chargeback moves only once it did; the defense
 * reason the evidence's documents can support; the deadline reminders' windows.
 */

const NOW = new Date('2026-11-25T10:00:00.000Z');
const HOUR = 3_600_000;
const live = aChargeback({ mode: 'live', deadlineAt: '2026-11-30T10:00:00.000Z', acquirer: { name: 'adyen', reference: 'DSP0000000000001', case_id: 'PSP0000000000001' } });
const principal: Principal = { actor: { type: 'api_key', id: 'key_1' }, orgId: live.orgId, mode: 'live', scopes: ['chargeback:update'] };
const PDF = new TextEncoder().encode('%PDF-1.4');

/** Reasons as the acquirer offers them, in its order; `generic` marks the one that claims nothing beyond the material (Adyen's SupplyDefenseMaterial). */
const reasons = (...list: [string, [string, DefenseReason['documentTypes'][number]['requirement']][], 'generic'?][]): DefenseReason[] =>
  list.map(([code, types, generic]) => ({ code, generic: generic === 'generic', satisfied: false, documentTypes: types.map(([type, requirement]) => ({ code: type, requirement, supplied: false })) }));

/** The acquirer's dispute half, recording what it was asked; `fail` makes one operation throw. */
function fakeAcquirer(offered: DefenseReason[], fail?: { operation: keyof DisputeAcquirer; error: Error }) {
  const calls: string[] = [];
  const supplied: DefenseDocument[] = [];
  const answer = <T>(operation: keyof DisputeAcquirer, value: T) => {
    calls.push(operation);
    if (fail?.operation === operation) return Promise.reject(fail.error);
    return Promise.resolve(value);
  };
  const acquirer: DisputeAcquirer = {
    documentFormats: { 'application/pdf': 2_000_000, 'image/jpeg': 10_000_000 },
    accept: () => answer('accept', undefined),
    defenseReasons: () => answer('defenseReasons', offered),
    supplyDefenseDocument: (_dispute, document) => {
      supplied.push(document);
      return answer('supplyDefenseDocument', undefined);
    },
    defend: (_dispute, code) => answer('defend', undefined).then(() => void calls.push(`defend:${code}`)),
  };
  return { acquirer, calls, supplied };
}

/** The PDFs the service makes, as recognisable bytes: a statement names its sections' texts, a PNG's PDF its size. */
const STATEMENT = (statement: EvidenceStatement) => new TextEncoder().encode(`%PDF-statement ${statement.sections.map((section) => `${section.heading}: ${section.text}`).join(' | ')}`);
const PNG_PDF = (png: Uint8Array) => new TextEncoder().encode(`%PDF-png of ${png.length} bytes`);

function deps(acquirer: DisputeAcquirer, documents: DisputeDocument[] = [], contents: Record<string, Uint8Array> = {}, renderer: Partial<DefenseRenderer> = {}) {
  const moves: { to: ChargebackStatus; evidence?: Evidence }[] = [];
  const store: DocumentStore = {
    presignUpload: async () => ({ url: 'https://s3.example/x', method: 'PUT', headers: {}, expiresAt: NOW.toISOString() }),
    head: async (key) => {
      const document = documents.find((candidate) => candidate.objectKey === key);
      return document && { contentType: document.contentType, size: document.size, versionId: 'v1' };
    },
    read: async (key) => contents[key.split('/').pop()!] ?? PDF,
  };
  const answerDeps: AnswerDeps = {
    chargebacks: { get: async (id) => (id === live.id ? live : undefined) },
    transition: async (current, to, _urls, trigger, now, evidence) => {
      moves.push({ to, ...(evidence ? { evidence } : {}) });
      return transitionChargeback(current, to, now ?? NOW, trigger, evidence);
    },
    documents: { create: async () => {}, get: async (chargebackId, id) => documents.find((document) => document.chargebackId === chargebackId && document.id === id) },
    store,
    acquirer: async () => acquirer,
    renderer: async () => ({ statementPdf: async (statement) => STATEMENT(statement), pngPdf: async (png) => PNG_PDF(png), ...renderer }),
    acquirerName: 'adyen',
    acceptors: { getAcceptor: async (orgId, acceptorId) => ({ id: acceptorId, orgId, name: 'Shop', merchantAccount: 'ShopECOM', createdAt: NOW.toISOString() }) },
    now: () => NOW,
  };
  return { answerDeps, moves };
}

const aDocument = (id: string, contentType: DisputeDocument['contentType'] = 'application/pdf', size = PDF.length) =>
  newDisputeDocument({ id, chargebackId: live.id, orgId: live.orgId, mode: 'live', filename: `${id}.file`, contentType, size }, NOW);
/** A PNG's first bytes: its signature and the header chunk with its size. */
const png = (width: number, height: number) => {
  const bytes = Buffer.alloc(33);
  Buffer.from('\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR', 'latin1').copy(bytes);
  bytes.writeUInt32BE(width, 16);
  bytes.writeUInt32BE(height, 20);
  return new Uint8Array(bytes);
};

describe('Use case: acceptChargeback (live)', () => {
  test('live accept: the acquirer accepts first, then the chargeback becomes accepted', async () => {
    // Prepare
    const { acquirer, calls } = fakeAcquirer([]);
    const { answerDeps, moves } = deps(acquirer);
    // Act
    const accepted = await acceptChargeback(answerDeps, principal, live.id, urls);
    // Assess
    expect(calls).toEqual(['accept']);
    expect(moves).toEqual([{ to: 'accepted' }]);
    expect(accepted.status).toBe('accepted');
  });

  test.each([
    ['unavailable -> 503, the chargeback does not move', new AcquirerUnavailableError('unreachable')],
    ['refused -> 422, the chargeback does not move', new AcquirerRefusedError('Dispute cannot be accepted: it is defended')],
  ])('live accept: acquirer %s', async (_rule, error) => {
    // Prepare
    const { acquirer } = fakeAcquirer([], { operation: 'accept', error });
    const { answerDeps, moves } = deps(acquirer);
    // Act
    const outcome = acceptChargeback(answerDeps, principal, live.id, urls);
    // Assess
    await expect(outcome).rejects.toBe(error);
    expect(moves).toEqual([]);
  });
  test('live accept: a chargeback another acquirer\'s feed opened -> 422, the acquirer is not asked, nothing moves', async () => {
    // Prepare
    const { acquirer, calls } = fakeAcquirer([]);
    const { answerDeps, moves } = deps(acquirer);
    const fed = { ...live, acquirer: { name: 'Acquirer', reference: '74527600000000000000001', case_id: 'CB0000000001' } };
    // Act
    const outcome = acceptChargeback({ ...answerDeps, chargebacks: { get: async () => fed } }, principal, live.id, urls);
    // Assess
    await expect(outcome).rejects.toThrow(new BusinessRuleError('This chargeback came from the acquirer Acquirer, which takes no answers through this API: answer it with that acquirer'));
    expect(calls).toEqual([]);
    expect(moves).toEqual([]);
  });

  test('live accept: the acceptor has no account at the acquirer -> 422, the acquirer is not asked', async () => {
    // Prepare
    const { acquirer, calls } = fakeAcquirer([]);
    const { answerDeps, moves } = deps(acquirer);
    // Act
    const outcome = acceptChargeback({ ...answerDeps, acceptors: { getAcceptor: async () => undefined } }, principal, live.id, urls);
    // Assess
    await expect(outcome).rejects.toBeInstanceOf(BusinessRuleError);
    expect([calls, moves]).toEqual([[], []]);
  });
});

describe('Use case: disputeChargeback (live)', () => {
  test('live dispute: the documents are read and supplied as the type a reason takes, the defense made, then the chargeback disputed with its evidence', async () => {
    // Prepare
    const { acquirer, calls, supplied } = fakeAcquirer(reasons(['GoodsOrServicesProvided', [['TIDorInvoice', 'required'], ['ProofOfDelivery', 'one_or_more']]], ['SupplyDefenseMaterial', [['DefenseMaterial', 'required']], 'generic']));
    const documents = [aDocument('doc_a'), aDocument('doc_b')];
    const { answerDeps, moves } = deps(acquirer, documents);
    const evidence = { product_description: 'A mug', documents: ['doc_a', 'doc_b'] };
    // Act
    const disputed = await disputeChargeback(answerDeps, principal, live.id, evidence, urls);
    // Assess
    expect(calls).toEqual(['defenseReasons', 'supplyDefenseDocument', 'supplyDefenseDocument', 'supplyDefenseDocument', 'defend', 'defend:SupplyDefenseMaterial']);
    expect(supplied).toEqual([
      { typeCode: 'DefenseMaterial', contentType: 'application/pdf', content: new TextEncoder().encode('%PDF-statement Product or service: A mug') },
      { typeCode: 'DefenseMaterial', contentType: 'application/pdf', content: PDF },
      { typeCode: 'DefenseMaterial', contentType: 'application/pdf', content: PDF },
    ]);
    expect(moves).toEqual([{ to: 'disputed', evidence }]);
    expect(disputed.dispute).toEqual({ submitted_at: NOW.toISOString(), evidence });
  });

  test('live dispute: texts only -> one PDF statement of every text under its heading, supplied as the material of the generic reason', async () => {
    // Prepare
    const { acquirer, calls, supplied } = fakeAcquirer(reasons(['SupplyDefenseMaterial', [['DefenseMaterial', 'required']], 'generic']));
    const { answerDeps, moves } = deps(acquirer);
    const evidence = { refund_policy: 'No refunds after the show', uncategorized_text: 'Ticket scanned at 19:02' };
    // Act
    await disputeChargeback(answerDeps, principal, live.id, evidence, urls);
    // Assess
    expect(calls).toEqual(['defenseReasons', 'supplyDefenseDocument', 'defend', 'defend:SupplyDefenseMaterial']);
    expect(new TextDecoder().decode(supplied[0].content)).toBe('%PDF-statement Refund policy: No refunds after the show | Other information: Ticket scanned at 19:02');
    expect(moves).toEqual([{ to: 'disputed', evidence }]);
  });

  test('live dispute: a PNG goes to the acquirer as a PDF of it, a JPEG as it is', async () => {
    // Prepare
    const { acquirer, supplied } = fakeAcquirer(reasons(['SupplyDefenseMaterial', [['DefenseMaterial', 'required']], 'generic']));
    const jpeg = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0]);
    const { answerDeps } = deps(acquirer, [aDocument('doc_png', 'image/png', 33), aDocument('doc_jpg', 'image/jpeg', jpeg.length)], { doc_png: png(800, 600), doc_jpg: jpeg });
    // Act
    await disputeChargeback(answerDeps, principal, live.id, { documents: ['doc_png', 'doc_jpg'] }, urls);
    // Assess
    expect(supplied.map(({ contentType, content }) => [contentType, new TextDecoder().decode(content)])).toEqual([
      ['application/pdf', '%PDF-png of 33 bytes'],
      ['image/jpeg', new TextDecoder().decode(jpeg)],
    ]);
  });

  test.each<[string, DisputeDocument[], Record<string, Uint8Array>, Partial<DefenseRenderer>, string, string]>([
    ['a PDF above the acquirer\'s 2,000,000 bytes (read from its declared size)', [aDocument('doc_big', 'application/pdf', 2_000_001)], {}, {}, 'evidence.documents', 'Document doc_big is a PDF of 2000001 bytes; the acquirer takes PDF files of at most 2000000 bytes'],
    ['a JPEG whose content is a PNG', [aDocument('doc_jpg', 'image/jpeg', 33)], { doc_jpg: png(10, 10) }, {}, 'evidence.documents', 'Document doc_jpg is not a JPEG file: its content does not start as one'],
    ['a PNG of more pixels than the function decodes', [aDocument('doc_png', 'image/png', 33)], { doc_png: png(5000, 5000) }, {}, 'evidence.documents', 'Document doc_png is a PNG of 5000×5000 pixels; at most 16777216 pixels are turned into a PDF'],
    ['a PNG whose image data cannot be read', [aDocument('doc_png', 'image/png', 33)], { doc_png: png(10, 10) }, { pngPdf: async () => undefined }, 'evidence.documents', 'Document doc_png cannot be read as a PNG image, to be sent as a PDF'],
    ['a PNG whose PDF passes 2,000,000 bytes', [aDocument('doc_png', 'image/png', 33)], { doc_png: png(10, 10) }, { pngPdf: async () => new Uint8Array(2_000_001) }, 'evidence.documents', 'The PDF of document doc_png is 2000001 bytes; the acquirer takes PDF files of at most 2000000 bytes'],
    ['texts whose PDF passes 2,000,000 bytes', [], {}, { statementPdf: async () => new Uint8Array(2_000_001) }, 'evidence', 'The PDF of the evidence texts is 2000001 bytes; the acquirer takes PDF files of at most 2000000 bytes'],
  ])('live dispute: %s -> 422, refused before anything is sent to the acquirer, nothing moved', async (_case, documents, contents, renderer, attribute, detail) => {
    // Prepare
    const { acquirer, calls } = fakeAcquirer(reasons(['SupplyDefenseMaterial', [['DefenseMaterial', 'required']], 'generic']));
    const { answerDeps, moves } = deps(acquirer, [...documents, aDocument('doc_ok')], contents, renderer);
    // Act
    const outcome = disputeChargeback(answerDeps, principal, live.id, { uncategorized_text: 'See the files', documents: ['doc_ok', ...documents.map((document) => document.id)] }, urls);
    // Assess
    await expect(outcome).rejects.toMatchObject({ attribute, message: detail });
    expect(calls).toEqual([]);
    expect(moves).toEqual([]);
  });

  test('live dispute: no reason the documents can support -> 422 evidence.documents, nothing supplied, nothing moved', async () => {
    // Prepare
    const { acquirer, calls } = fakeAcquirer(reasons(['GoodsOrServicesProvided', [['TIDorInvoice', 'required'], ['ProofOfDelivery', 'required']]]));
    const { answerDeps, moves } = deps(acquirer, [aDocument('doc_a')]);
    // Act
    const outcome = disputeChargeback(answerDeps, principal, live.id, { documents: ['doc_a'] }, urls);
    // Assess
    await expect(outcome).rejects.toMatchObject({ attribute: 'evidence.documents' });
    expect(calls).toEqual(['defenseReasons']);
    expect(moves).toEqual([]);
  });

  test('live dispute: the acquirer unreachable when defending -> 503, the chargeback does not move', async () => {
    // Prepare
    const error = new AcquirerUnavailableError('timeout');
    const { acquirer } = fakeAcquirer(reasons(['SupplyDefenseMaterial', [['DefenseMaterial', 'required']], 'generic']), { operation: 'defend', error });
    const { answerDeps, moves } = deps(acquirer, [aDocument('doc_a')]);
    // Act
    const outcome = disputeChargeback(answerDeps, principal, live.id, { documents: ['doc_a'] }, urls);
    // Assess
    await expect(outcome).rejects.toBe(error);
    expect(moves).toEqual([]);
  });
});

describe('Function: chooseDefense', () => {
  test.each<[string, DefenseReason[], number, ReturnType<typeof chooseDefense>]>([
    ['one required type: all documents as it', reasons(['SupplyDefenseMaterial', [['DefenseMaterial', 'required']]]), 2, { reasonCode: 'SupplyDefenseMaterial', documentTypeCode: 'DefenseMaterial' }],
    [
      "the generic reason before the specific ones, wherever the acquirer lists it (Adyen's documented answer: GoodsNotReturned first, SupplyDefenseMaterial last)",
      reasons(
        ['GoodsNotReturned', [['TIDorInvoice', 'optional'], ['GoodsNotReturned', 'required']]],
        ['GoodsWereAsDescribed', [['GoodsWereAsDescribed', 'required'], ['TIDorInvoice', 'required']]],
        ['SupplyDefenseMaterial', [['TIDorInvoice', 'optional'], ['DefenseMaterial', 'required']], 'generic'],
      ),
      1,
      { reasonCode: 'SupplyDefenseMaterial', documentTypeCode: 'DefenseMaterial' },
    ],
    [
      'the generic reason with its required type and a generic alternative: the required type (the alternative needs enabling at the acquirer)',
      reasons(['SupplyDefenseMaterial', [['TIDorInvoice', 'optional'], ['DefenseMaterial', 'required'], ['AlternativeDefenseMaterial', 'alternative_required']], 'generic']),
      2,
      { reasonCode: 'SupplyDefenseMaterial', documentTypeCode: 'DefenseMaterial' },
    ],
    ['a generic alternative meets a reason whose own types one type cannot', reasons(['A', [['X', 'required'], ['Y', 'required'], ['Alt', 'alternative_required']]]), 1, { reasonCode: 'A', documentTypeCode: 'Alt' }],
    ['no generic reason offered: the first specific one the documents can meet', reasons(['A', [['X', 'required'], ['Y', 'required']]], ['B', [['Z', 'required']]], ['C', [['W', 'required']]]), 1, { reasonCode: 'B', documentTypeCode: 'Z' }],
    ['two required types cannot be met by one: the next reason', reasons(['A', [['X', 'required'], ['Y', 'required']]], ['B', [['Z', 'one_or_more']]]), 1, { reasonCode: 'B', documentTypeCode: 'Z' }],
    ['a required type outside its one-or-more group: skipped', reasons(['A', [['X', 'required'], ['Y', 'one_or_more']]]), 1, undefined],
    ['without documents: only a reason that needs none', reasons(['A', [['X', 'required']]], ['B', [['Y', 'optional']]]), 0, { reasonCode: 'B' }],
    ['without documents and every reason needs one: none', reasons(['A', [['X', 'required']]]), 0, undefined],
  ])('%s', (_rule, offered, documents, expected) => {
    expect(chooseDefense(offered, documents)).toEqual(expected);
  });
});

describe('Function: dueReminder and reminded', () => {
  const opened = (hoursLeft: number) => openChargeback({ id: 'cb_x', payment: aPayment(), deadlineAt: new Date(NOW.getTime() + hoursLeft * HOUR).toISOString(), now: NOW });

  test.each<[string, number, number[], (72 | 24 | undefined)[]]>([
    ['opened 100 h before: none yet, 72 at 72 h left, 24 at 24 h left', 100, [0, 28, 76, 77], [undefined, 72, 24, undefined]],
    ['opened 71 h before: 72 at once, then 24 at 24 h left', 71, [0, 1, 47], [72, undefined, 24]],
    ['opened 23 h before: 24 only, once', 23, [0, 1], [24, undefined]],
    ['a sweep late past the 24-hour mark sends 24 only', 100, [80, 81], [24, undefined]],
  ])('%s', (_rule, hoursLeft, runsAfterHours, expected) => {
    // Prepare
    let chargeback: Chargeback = opened(hoursLeft);
    const sent: (72 | 24 | undefined)[] = [];
    // Act
    for (const at of runsAfterHours) {
      const hours = dueReminder(chargeback, new Date(NOW.getTime() + at * HOUR));
      sent.push(hours);
      if (hours) chargeback = reminded(chargeback, hours);
    }
    // Assess
    expect(sent).toEqual(expected);
    expect(chargeback.nextReminderHours).toBeUndefined();
  });

  test('none past the deadline, none once answered', () => {
    const chargeback = opened(10);
    expect(dueReminder(chargeback, new Date(NOW.getTime() + 11 * HOUR))).toBeUndefined();
    expect(dueReminder(transitionChargeback(chargeback, 'accepted', NOW), NOW)).toBeUndefined();
    expect(opened(-1).nextReminderHours).toBeUndefined();
  });
});
