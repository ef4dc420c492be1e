/**
 * `npm run bench:cold`: what `cdk deploy` ships against the floor, measured on a fresh synth.
 * The floor is the smallest function that answers a GetItem through lib-dynamodb
 * (bench/floor/handler.ts), bundled by the same ServiceFunction construct as every function.
 * 1. init: a fresh `node` importing the GET payment-link bundle and the largest bundle with
 *    their deployed NODE_OPTIONS ÷ the same for the floor (median of interleaved runs), and
 *    what source maps would cost;
 * 2. bundle sizes beside the floor's, to read the init figures by (bytes are not a goal).
 */
import { App, Stack } from 'aws-cdk-lib';
import { runWhenMain } from './script';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServiceFunction } from '../lib/api-function';
import { functionOfRoute, readSynthesizedStack, resourcesOfType, type CfnResource } from '../bin/local/aws/template';

const ROOT = join(__dirname, '..');
const INIT_RUNS = Number(process.env.BENCH_INIT_RUNS ?? 15);

const bundleOf = (dir: string, fn: CfnResource) => join(dir, String(fn.Metadata?.['aws:asset:path']), 'index.mjs');
const kilobytes = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

function synthesizeService(dir: string) {
  execFileSync('npx', ['cdk', 'synth', '--quiet', '--output', dir], { cwd: ROOT, stdio: 'ignore' });
  return readSynthesizedStack(dir);
}

function synthesizeFloor(dir: string) {
  // What the CLI sets, so that the function names its bundle folder (aws:asset:path) as in a cdk synth.
  const app = new App({ outdir: dir, context: { 'aws:cdk:enable-asset-metadata': true } });
  new ServiceFunction(new Stack(app, 'Floor'), 'Floor', { handler: 'floor', entry: join(ROOT, 'bench', 'floor', 'handler.ts') });
  app.synth();
  return readSynthesizedStack(dir);
}

/** Wall time of a fresh `node` that imports `bundle` with `nodeOptions`, in ms. */
function importTime(bundle: string, nodeOptions: string): number {
  const start = process.hrtime.bigint();
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', `await import(${JSON.stringify(`file://${bundle}`)})`], {
    env: { PATH: process.env.PATH, NODE_OPTIONS: nodeOptions, AWS_REGION: 'eu-west-1', TABLE_NAME: 'bench', DOCUMENTS_BUCKET: 'bench', AWS_LAMBDA_FUNCTION_NAME: 'bench' },
    stdio: 'ignore',
  });
  if (run.status !== 0) throw new Error(`importing ${bundle} failed (${run.status})`);
  return Number(process.hrtime.bigint() - start) / 1e6;
}

export async function benchCold(): Promise<string[]> {
  const work = mkdtempSync(join(tmpdir(), 'bench-cold-'));
  try {
    const service = synthesizeService(join(work, 'service'));
    const floorStack = synthesizeFloor(join(work, 'floor'));
    const [[, floorFunction]] = resourcesOfType(floorStack, 'AWS::Lambda::Function');
    const floorBundle = bundleOf(floorStack.dir, floorFunction);
    const floorBytes = statSync(floorBundle).size;
    const functions = resourcesOfType(service, 'AWS::Lambda::Function')
      .filter(([, fn]) => fn.Metadata?.['aws:asset:path'])
      .map(([id, fn]) => ({ id, bytes: statSync(bundleOf(service.dir, fn)).size }))
      .sort((a, b) => b.bytes - a.bytes);

    const getLink = service.resources[functionOfRoute(service.resources, 'GET /v1/payment_links/{id}')];
    const getLinkBundle = bundleOf(service.dir, getLink);
    const deployedOptions = String((getLink.Properties?.Environment as { Variables?: Record<string, string> })?.Variables?.NODE_OPTIONS ?? '');
    // What loading the shipped source maps would cost (functions do not: docs/operations.md).
    const withMaps = `${deployedOptions} --enable-source-maps`.trim();
    const [largest] = functions;
    const largestBundle = bundleOf(service.dir, service.resources[largest.id]);
    const times = { service: [] as number[], floor: [] as number[], serviceWithMaps: [] as number[], largest: [] as number[] };
    for (let run = 0; run < INIT_RUNS + 2; run++) {
      const warmup = run < 2;
      const floor = importTime(floorBundle, deployedOptions);
      const service = importTime(getLinkBundle, deployedOptions);
      const serviceWithMaps = importTime(getLinkBundle, withMaps);
      const largestInit = importTime(largestBundle, deployedOptions);
      if (warmup) continue;
      times.service.push(service);
      times.floor.push(floor);
      times.serviceWithMaps.push(serviceWithMaps);
      times.largest.push(largestInit);
    }
    const smallest = functions[functions.length - 1];
    const getLinkBytes = statSync(getLinkBundle).size;
    return [
      '## Cold start: bundles and init against the floor (`npm run bench:cold`)',
      '',
      `Floor: a GetItem through lib-dynamodb, bundled by the same construct: ${kilobytes(floorBytes)}. ${functions.length} functions.`,
      '',
      '| Measure | Service | Floor | Ratio | Goal |',
      '|---|---|---|---|---|',
      `| Init, GET payment link, deployed NODE_OPTIONS "${deployedOptions}" (median of ${INIT_RUNS}) | ${median(times.service).toFixed(1)} ms | ${median(times.floor).toFixed(1)} ms | ${(median(times.service) / median(times.floor)).toFixed(2)}× | ≤ 1.25× |`,
      `| Init, largest bundle (${largest.id}) | ${median(times.largest).toFixed(1)} ms | ${median(times.floor).toFixed(1)} ms | ${(median(times.largest) / median(times.floor)).toFixed(2)}× | ≤ 1.5× |`,
      `| Init, GET payment link, if --enable-source-maps were set | ${median(times.serviceWithMaps).toFixed(1)} ms | ${median(times.floor).toFixed(1)} ms | ${(median(times.serviceWithMaps) / median(times.floor)).toFixed(2)}× | — |`,
      `| Bundle, GET payment link | ${kilobytes(getLinkBytes)} | ${kilobytes(floorBytes)} | ${(getLinkBytes / floorBytes).toFixed(2)}× | — |`,
      `| Bundle, largest (${largest.id}) | ${kilobytes(largest.bytes)} | ${kilobytes(floorBytes)} | ${(largest.bytes / floorBytes).toFixed(2)}× | — |`,
      `| Bundle, median of ${functions.length} | ${kilobytes(median(functions.map((fn) => fn.bytes)))} | ${kilobytes(floorBytes)} | ${(median(functions.map((fn) => fn.bytes)) / floorBytes).toFixed(2)}× | — |`,
      `| Bundle, smallest (${smallest.id}) | ${kilobytes(smallest.bytes)} | ${kilobytes(floorBytes)} | ${(smallest.bytes / floorBytes).toFixed(2)}× | — |`,
    ];
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

runWhenMain(module, benchCold);
